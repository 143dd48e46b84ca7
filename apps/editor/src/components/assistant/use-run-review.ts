"use client";

import type { RunChanges } from "@coauthor/tools";
import {
  createStaleGuard,
  fromRunEdits,
  isWriteTool,
  mergeRunEdits,
  runToolAsSuggestion,
  runToolNowAs,
  type StaleGuard,
  tellSuggestionOutcomes,
  toRunEdits,
} from "@coauthor/tools";
import type { RunEdits, RunEvent } from "@coauthor/types";
import { type RefObject, useCallback, useMemo, useRef, useState } from "react";
import { useTRPCClient } from "@/trpc/react";
import { useAgentLive } from "../editor/agent-live-context";
import { type RevertReport, revertRunChanges } from "../editor/revert-run";
import { type RunRecorder, recordAgentEdits } from "../editor/run-recorder";
import type { SuggestAs } from "./edit-mode";
import { createInsertPreviewFeed } from "./insert-preview";
import type { ToolExecutor } from "./run-client";

/**
 * Saves under this size go out as keep-alive requests, which outlive a reload or a closed tab
 * (browsers cap those at 64 KB); a bigger save is a plain request.
 */
const KEEPALIVE_MAX_CHARS = 60_000;

const warnUnsaved = (error: unknown) => console.warn("[assistant] could not save the run's edits:", error);

/** One run being recorded in this tab: its id once known, what earlier tabs saved, and the recorder. */
interface Recording {
  runId: string | null;
  recorder: RunRecorder;
  /** Edits saved for this run before this tab took it over (a reload mid-run), once loaded. */
  earlier: Promise<RunEdits | null> | null;
  /** Recorded parts the server has not taken yet (a save failed): sent with the next save. */
  unsaved: RunEdits | null;
  /** The save in flight; edits that land meanwhile are saved once it is done. */
  saving: Promise<void> | null;
  dirty: boolean;
}

/**
 * The editor side of an agent run's lifecycle: preview inserts while the model writes them; record
 * the run's own edits as they land (each agent edit is a tagged update, diffed block by block, so
 * what co-editors type meanwhile is never counted as the run's) and save them on the server, so
 * Undo run works after a reload and on another day; when the run ends (however it ends) offer
 * Keep / Undo run. Nobody is locked out: the writer and co-editors keep typing.
 */
export function useRunReview({
  suggestAs,
  agentAs,
}: {
  /** Who the run's write calls are suggested as (Suggest mode), read at each call; null: they edit directly. */
  suggestAs: RefObject<SuggestAs | null>;
  /** Who the run writes as when it edits directly: the blocks it writes name it (provenance). */
  agentAs: SuggestAs;
}) {
  const { store, collab } = useAgentLive();
  const trpc = useTRPCClient();
  const recording = useRef<Recording | null>(null);
  // Bumped by every start and end: a slow save of an older run must not put up its offer late.
  const generation = useRef(0);
  const [offer, setOffer] = useState<RunChanges | null>(null);
  const [report, setReport] = useState<RevertReport | null>(null);
  const preview = useMemo(
    () => createInsertPreviewFeed((value) => store.update({ preview: value })),
    [store],
  );

  /** This tab's edits of the run merged after what was saved before it; null when there are none. */
  const editsOf = useCallback(async (run: Recording): Promise<RunEdits | null> => {
    const mine = run.recorder.changes();
    const earlier = await run.earlier;
    if (mine === null) return earlier ?? null;
    return earlier ? mergeRunEdits(earlier, toRunEdits(mine)) : toRunEdits(mine);
  }, []);

  /**
   * Adds what this tab recorded since its last save to the run's stored edits: parts, not the
   * whole, so what other executors stored in between (the server ran calls while this tab was
   * away) is kept.
   */
  const saveOnce = useCallback(
    async (run: Recording): Promise<void> => {
      if (run.runId === null) return;
      const taken = run.recorder.takeChanges();
      if (taken !== null)
        run.unsaved = run.unsaved ? mergeRunEdits(run.unsaved, toRunEdits(taken)) : toRunEdits(taken);
      if (run.unsaved === null) return;
      const input = { runId: run.runId, edits: run.unsaved };
      const keepalive = JSON.stringify(input).length <= KEEPALIVE_MAX_CHARS;
      await trpc.assistant.addRunEdits.mutate(input, { context: { keepalive } });
      run.unsaved = null;
    },
    [trpc],
  );

  /** Saves the run's edits now, one save at a time (every agent edit saves, so a reload loses none). */
  const save = useCallback(
    (run: Recording): Promise<void> => {
      if (run.saving !== null) {
        run.dirty = true;
        return run.saving;
      }
      run.dirty = false;
      run.saving = saveOnce(run).finally(() => {
        run.saving = null;
        if (run.dirty) save(run).catch(warnUnsaved);
      });
      return run.saving;
    },
    [saveOnce],
  );

  /** The whole run's edits, every executor's part, as stored; this tab's own record if that fails. */
  const wholeRun = useCallback(
    async (run: Recording): Promise<RunEdits | null> => {
      if (run.runId === null || run.unsaved !== null) return editsOf(run);
      return (await trpc.assistant.runEdits.query({ runId: run.runId })) ?? editsOf(run);
    },
    [editsOf, trpc],
  );

  const finish = useCallback((): Promise<RunEdits | null> => {
    const ended = recording.current;
    recording.current = null;
    preview.reset();
    store.update({ active: false });
    if (ended === null) return Promise.resolve(null);
    ended.recorder.stop();
    if (ended.runId !== null) collab().forgetRun(ended.runId);
    // After any save in flight, one last save with everything.
    return (ended.saving ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => saveOnce(ended))
      .then(() => wholeRun(ended))
      .catch((error: unknown) => {
        console.warn("[assistant] could not save the run's edits:", error);
        return editsOf(ended);
      });
  }, [collab, editsOf, preview, saveOnce, store, wholeRun]);

  const onAgentActiveChange = useCallback(
    (active: boolean) => {
      // A new agent prompt supersedes the run in flight (and the offer of the last one).
      const ended = finish();
      const current = ++generation.current;
      setOffer(null);
      setReport(null);
      if (!active) {
        void ended.then((edits) => {
          if (edits !== null && generation.current === current) setOffer(fromRunEdits(edits));
        });
        return;
      }
      const run: Recording = {
        runId: null,
        earlier: null,
        unsaved: null,
        saving: null,
        dirty: false,
        recorder: recordAgentEdits(collab().agentEditor, () => {
          save(run).catch(warnUnsaved);
        }),
      };
      recording.current = run;
      guard.current = null;
      store.update({ active: true });
    },
    [collab, finish, save, store],
  );

  // Tools run on the agent's editor (a mirror of the live document), once this copy has synced,
  // through the run's stale guard: no write lands on a block someone changed since the model read it.
  const guard = useRef<StaleGuard | null>(null);
  const executeTool = useMemo((): ToolExecutor => {
    return async (call) => {
      try {
        const session = collab();
        await session.whenSynced();
        guard.current ??= createStaleGuard(session.agentEditor);
        const runGuard = guard.current;
        const author = suggestAs.current?.(call.runId) ?? null;
        const run = () =>
          author === null
            ? runGuard.run(call.toolName, call.input, async (editor, toolName, input) =>
                runToolNowAs(editor, toolName, input, agentAs(call.runId)),
              )
            : runGuard.run(call.toolName, call.input, (editor, toolName, input) =>
                runToolAsSuggestion(editor, toolName, input, author),
              );
        // Reads have no effect to repeat; a write runs at most once, whichever tab runs it.
        const output = isWriteTool(call.toolName)
          ? await session.runOnce(call.runId, call.toolCallId, run)
          : await run();
        // A Suggest-mode run hears which of its suggestions people decided since its last call.
        return author === null ? output : tellSuggestionOutcomes(session.doc, call.runId, output);
      } finally {
        // The real edit has landed (or failed): the preview of its input goes.
        preview.settle(call.toolCallId);
      }
    };
  }, [collab, preview, suggestAs, agentAs]);

  const onRunEvent = useCallback(
    (event: RunEvent) => {
      const run = recording.current;
      if (run !== null && run.runId === null) {
        // The first event names the run: what an earlier tab saved for it comes first.
        run.runId = event.runId;
        run.earlier = trpc.assistant.runEdits.query({ runId: event.runId }).catch((error: unknown) => {
          console.warn("[assistant] could not load the run's saved edits:", error);
          return null;
        });
      }
      if (event.type === "tool-input-delta") preview.push(event);
    },
    [preview, trpc],
  );

  /** Reverts `changes` through the agent's editor: the revert reaches every copy and stays off the writer's undo stack. */
  const revert = useCallback(
    (changes: RunChanges) => {
      setReport(revertRunChanges(collab().agentEditor, changes));
    },
    [collab],
  );

  const undoRun = useCallback(() => {
    if (offer !== null) revert(offer);
    setOffer(null);
  }, [offer, revert]);

  /** Undo of an earlier run, from History: its edits come from the server. */
  const undoStoredRun = useCallback(
    async (runId: string) => {
      const edits = await trpc.assistant.runEdits.query({ runId });
      if (edits !== null) revert(fromRunEdits(edits));
    },
    [revert, trpc],
  );

  const dismiss = useCallback(() => {
    setOffer(null);
    setReport(null);
  }, []);

  return {
    offer,
    report,
    onAgentActiveChange,
    executeTool,
    onRunEvent,
    undoRun,
    undoStoredRun,
    keep: dismiss,
    dismiss,
  };
}
