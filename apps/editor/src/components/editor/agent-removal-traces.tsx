"use client";

import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useEffect, useLayoutEffect, useRef } from "react";
import { useAnnounce } from "../a11y/announcer";
import { useAgentLiveState } from "./agent-live-context";
import type { RemovalTrace } from "./agent-live-store";
import { placePreview } from "./preview-placement";

/** One trace, placed in the gap where the blocks were (like the insert preview, outside Lexical's DOM). */
function Trace({ trace }: { trace: RemovalTrace }) {
  const [editor] = useLexicalComposerContext();
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element === null) return;
    let closeGap = placePreview(editor, element, trace.position);
    const replace = () => {
      closeGap();
      closeGap = placePreview(editor, element, trace.position);
    };
    const unregister = editor.registerUpdateListener(replace);
    window.addEventListener("resize", replace);
    return () => {
      unregister();
      window.removeEventListener("resize", replace);
      closeGap();
    };
  }, [editor, trace.position]);
  return (
    <div ref={ref} className="agent-removal-trace" data-testid="agent-removal-trace">
      {trace.label}
    </div>
  );
}

/** The marks where the writer's agent just removed blocks (render inside the editor's scroll container); each is announced once. */
export function AgentRemovalTraces() {
  const { traces } = useAgentLiveState();
  const announce = useAnnounce();
  const announced = useRef(new Set<number>());
  useEffect(() => {
    for (const trace of traces) {
      if (announced.current.has(trace.id)) continue;
      announced.current.add(trace.id);
      announce(trace.label);
    }
  }, [announce, traces]);
  return (
    <>
      {traces.map((trace) => (
        <Trace key={trace.id} trace={trace} />
      ))}
    </>
  );
}
