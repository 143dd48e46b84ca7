"use client";

import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useLayoutEffect, useRef } from "react";
import { useAgentLiveState } from "./agent-live-context";
import { placePreview } from "./preview-placement";

/** The text of an insert the model is still writing, shown where it will land (render inside the editor's scroll container). */
export function AgentPreview() {
  const [editor] = useLexicalComposerContext();
  const { preview } = useAgentLiveState();
  const ref = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const element = ref.current;
    if (preview === null || element === null) return;
    let closeGap = placePreview(editor, element, preview.position);
    const replace = () => {
      closeGap();
      closeGap = placePreview(editor, element, preview.position);
    };
    const unregister = editor.registerUpdateListener(replace);
    window.addEventListener("resize", replace);
    return () => {
      unregister();
      window.removeEventListener("resize", replace);
      closeGap();
    };
  }, [editor, preview]);

  if (preview === null) return null;
  return (
    <div ref={ref} className="agent-preview" data-testid="agent-preview" aria-hidden="true">
      {preview.text}
      <span className="agent-preview-caret" />
    </div>
  );
}
