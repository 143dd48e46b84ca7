"use client";

import type { RunEvent } from "@coauthor/types";
import { useCallback, useMemo, useRef, useState } from "react";
import { useAgentLive } from "../editor/agent-live-context";
import type { RunChanges } from "../editor/block-snapshot";
import { revertRunChanges } from "../editor/revert-run";
import { type RunRecorder, recordAgentEdits } from "../editor/run-recorder";
import { createEditorToolExecutor } from "./editor-bridge";
import { createInsertPreviewFeed } from "./insert-preview";
import type { ToolExecutor } from "./run-client";

/**
 * The editor side of an agent run's lifecycle: preview inserts while the model writes them; record
 * the run's own edits as they land (each agent edit is a tagged update, diffed block by block, so
 * what co-editors type meanwhile is never counted as the run's); when the run ends (however it
 * ends) offer Keep / Undo run for them. Nobody is locked out: the writer and co-editors keep typing.
 */
export function useRunReview() {
  const { store, collab } = useAgentLive();
  const recording = useRef<RunRecorder | null>(null);
  const [offer, setOffer] = useState<RunChanges | null>(null);
  const preview = useMemo(
    () => createInsertPreviewFeed((value) => store.update({ preview: value })),
    [store],
  );

  const finish = useCallback((): RunChanges | null => {
    const ended = recording.current;
    recording.current = null;
    preview.reset();
    store.update({ active: false });
    return ended?.stop() ?? null;
  }, [preview, store]);

  const onAgentActiveChange = useCallback(
    (active: boolean) => {
      // A new agent prompt supersedes the run in flight (and the offer of the last one).
      const changes = finish();
      setOffer(active ? null : changes);
      if (!active) return;
      recording.current = recordAgentEdits(collab().agentEditor);
      store.update({ active: true });
    },
    [collab, finish, store],
  );

  // Tools run on the agent's editor (a mirror of the live document), once this copy has synced.
  const executeTool = useMemo((): ToolExecutor => {
    return async (call) => {
      try {
        const session = collab();
        await session.whenSynced();
        return await createEditorToolExecutor(session.agentEditor)(call);
      } finally {
        // The real edit has landed (or failed): the preview of its input goes.
        preview.settle(call.toolCallId);
      }
    };
  }, [collab, preview]);

  const onRunEvent = useCallback(
    (event: RunEvent) => {
      if (event.type === "tool-input-delta") preview.push(event);
    },
    [preview],
  );

  const undoRun = useCallback(() => {
    // Through the agent's editor too: the revert reaches every copy and stays off the writer's undo stack.
    if (offer !== null) revertRunChanges(collab().agentEditor, offer);
    setOffer(null);
  }, [collab, offer]);

  const dismiss = useCallback(() => setOffer(null), []);

  return { offer, onAgentActiveChange, executeTool, onRunEvent, undoRun, keep: dismiss, dismiss };
}
