"use client";

import type { RunEvent } from "@coauthor/types";
import type { LexicalEditor } from "lexical";
import { useCallback, useMemo, useRef, useState } from "react";
import { useAgentLive } from "../editor/agent-live-context";
import {
  type BlockSnapshot,
  diffSnapshots,
  hasChanges,
  type RunChanges,
  snapshotBlocks,
} from "../editor/block-snapshot";
import { revertRunChanges } from "../editor/revert-run";
import { collapseHistorySince, type HistoryMark, markHistory } from "../editor/run-history";
import { createEditorToolExecutor, setAgentRunLock } from "./editor-bridge";
import { createInsertPreviewFeed } from "./insert-preview";
import type { ToolExecutor } from "./run-client";

interface RunSession {
  mark: HistoryMark;
  before: BlockSnapshot;
}

/**
 * The editor side of an agent run's lifecycle: lock the document and note where it stood when the
 * run starts; preview inserts while the model writes them; when the run ends (however it ends)
 * make its edits one undo step and offer Keep / Undo run for them.
 */
export function useRunReview(editor: LexicalEditor) {
  const { historyState, store } = useAgentLive();
  const session = useRef<RunSession | null>(null);
  const [offer, setOffer] = useState<RunChanges | null>(null);
  const preview = useMemo(
    () => createInsertPreviewFeed((value) => store.update({ preview: value })),
    [store],
  );

  const finish = useCallback((): RunChanges | null => {
    const ended = session.current;
    session.current = null;
    preview.reset();
    store.update({ active: false });
    // Only a run's own lock is released: an editor that was read-only before (a viewer's) stays so.
    if (ended === null) return null;
    setAgentRunLock(editor, false);
    collapseHistorySince(editor, historyState, ended.mark);
    const changes = diffSnapshots(ended.before, snapshotBlocks(editor.getEditorState()));
    return hasChanges(changes) ? changes : null;
  }, [editor, historyState, preview, store]);

  const onAgentActiveChange = useCallback(
    (active: boolean) => {
      // A new agent prompt supersedes the run in flight (and the offer of the last one).
      const changes = finish();
      setOffer(active ? null : changes);
      if (!active) return;
      session.current = {
        mark: markHistory(editor, historyState),
        before: snapshotBlocks(editor.getEditorState()),
      };
      store.update({ active: true });
      setAgentRunLock(editor, true);
    },
    [editor, finish, historyState, store],
  );

  const executeTool = useMemo((): ToolExecutor => {
    const run = createEditorToolExecutor(editor);
    return async (call) => {
      try {
        return await run(call);
      } finally {
        // The real edit has landed (or failed): the preview of its input goes.
        preview.settle(call.toolCallId);
      }
    };
  }, [editor, preview]);

  const onRunEvent = useCallback(
    (event: RunEvent) => {
      if (event.type === "tool-input-delta") preview.push(event);
    },
    [preview],
  );

  const undoRun = useCallback(() => {
    if (offer !== null) revertRunChanges(editor, offer);
    setOffer(null);
  }, [editor, offer]);

  const dismiss = useCallback(() => setOffer(null), []);

  return { offer, onAgentActiveChange, executeTool, onRunEvent, undoRun, keep: dismiss, dismiss };
}
