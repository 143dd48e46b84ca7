import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { agentEnv, log } from "@coauthor/agent-workflow";
import { recordToolResult, type ServerToolCall } from "@coauthor/agent-workflow/server";
import {
  diffSnapshots,
  findCall,
  hasChanges,
  nextClock,
  type RunChanges,
  recordCall,
  runEditorToolNow,
  runToolAsSuggestionNow,
  runToolNowAs,
  type SuggestionAuthor,
  snapshotBlocks,
  tellSuggestionOutcomes,
  toRunEdits,
} from "@coauthor/tools";
import type { EditMode } from "@coauthor/types";
import { isWriteTool } from "@coauthor/types/tools";
import { roleAllows } from "@/server/auth/roles";
import { editLiveDocument } from "@/server/collab/live-edit";
import { authorOf } from "@/server/comments";
import { findDocumentAccess } from "@/server/documents";
import { appendRunEdits } from "@/server/run-edits";
import { findRun } from "@/server/runs";
import { withExecutorSlot } from "./executor-slots";
import { claimRunLease, lastHeldBy, RUN_LEASE_TTL_MS, yieldRunLease } from "./run-lease";
import { showServerAgent, showServerAgentWaiting } from "./server-presence";
import { staleGuardOf } from "./server-stale-guards";

// The server as a run's executor when no tab of the writer is there (issue #39): an announced call
// that no tab takes within AGENT_SERVER_TAKEOVER_MS (the grace a tab that lost its connection
// has to come back) is run here, on the sync server's live document, by the same tool code a tab
// runs; a run in the background (executor "server") has every call run here at once, and no tab is
// granted its lease. The run's lease decides who executes: a tab renews it while it lives, so the
// server claims it only once no tab holds it, runs the one call, and lets go (a tab that comes
// back takes over at the next call). Once the server has run a call and no tab has claimed the
// lease since, the run's next calls are taken at once: the grace is paid once per absence. The call is recorded in
// the shared document in the same update as its edit (as a tab's `runOnce` does), so no executor
// runs it twice; its result is recorded like a tab's (the first recorded wins).

/** The lease holder's name while the server runs a call (tabs use random ids). */
const SERVER_HOLDER = "server";

/** Waits `ms`; false when `signal` aborted first. */
async function waited(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch (error) {
    if (signal.aborted) return false;
    throw error;
  }
}

/**
 * Runs an announced call on the server: at once for a run in the background, else unless a tab
 * takes it within AGENT_SERVER_TAKEOVER_MS (0: only runs in the background); at once when the
 * server ran the run's last call and no tab has come back since.
 */
export function offerCallToServer(call: ServerToolCall, signal: AbortSignal): void {
  void takeOver(call, signal).catch((error: unknown) =>
    log.error("server executor: a tool call failed", {
      runId: call.runId,
      toolCallId: call.toolCallId,
      error,
    }),
  );
}

async function takeOver(call: ServerToolCall, signal: AbortSignal): Promise<void> {
  const run = await findRun(call.runId);
  if (run === null) return;
  const grace = agentEnv().AGENT_SERVER_TAKEOVER_MS;
  if (run.executor === "tab" && grace === 0) return;
  const after = run.executor === "server" || (await lastHeldBy(call.runId, SERVER_HOLDER)) ? 0 : grace;
  if (!(await waited(after, signal))) return;
  while (!signal.aborted) {
    // The lease is claimed once a slot is free, so a call waiting its turn leaves the lease to a
    // tab that comes back meanwhile.
    const ran = await withExecutorSlot(
      async () => {
        if (signal.aborted || !(await claimRunLease(call.runId, SERVER_HOLDER))) return false;
        try {
          await runOnServer(call, signal);
        } finally {
          await yieldRunLease(call.runId, SERVER_HOLDER);
        }
        return true;
      },
      (ahead) =>
        showWaiting(run, ahead).catch((error: unknown) =>
          log.error("server executor: could not show a run waiting", { runId: call.runId, error }),
        ),
    );
    if (ran) return;
    // A tab holds the lease: it runs the call. Try again when a lease it stopped renewing would lapse.
    if (!(await waited(RUN_LEASE_TTL_MS / 3, signal))) return;
  }
}

/** Tells co-editors (and the writer, if they look) that the run waits for a free executor slot. */
async function showWaiting(run: { documentId: string; userId: string }, ahead: number): Promise<void> {
  showServerAgentWaiting(run.documentId, (await authorOf(run.userId)).name, ahead);
}

/**
 * Runs the call on the live document as the writer's tab would: directly, or, when the writer
 * chose Suggest (the run's edit mode, which their panel keeps current), as suggestions by
 * "Coauthor for <writer>".
 */
async function runOnLiveDocument(
  call: ServerToolCall,
  run: { documentId: string; userId: string; editMode: EditMode; threadId: string | null },
  signal: AbortSignal,
): Promise<unknown> {
  const writerName = (await authorOf(run.userId)).name;
  // Who the run writes as: its direct edits name it (provenance), its suggestions carry it.
  const agent = { authorId: run.userId, authorName: `Coauthor for ${writerName}`, runId: call.runId };
  const suggestAs: SuggestionAuthor | null =
    run.editMode === "suggest" ? { ...agent, ...(run.threadId ? { threadId: run.threadId } : {}) } : null;
  const { output, changes } = await editLiveDocument(
    run.documentId,
    run.userId,
    (copy): { output: unknown; changes: RunChanges | null } => {
      // Stopped or superseded while the live document was being opened: the run is over, no edit.
      if (signal.aborted) return { output: RUN_ENDED, changes: null };
      const key = `${call.runId}:${call.toolCallId}`;
      const recorded = findCall(copy.doc, key);
      if (recorded !== null) return { output: recorded.output, changes: null };
      // The run's stale guard, as a tab's: no write to a block changed since the model read it.
      const guard = staleGuardOf(call.runId);
      const checked = guard.check(copy.editor, call.toolName, call.input);
      if ("refused" in checked) return { output: checked.refused, changes: null };
      // A Suggest-mode run hears which of its suggestions people decided since its last call.
      const tell = (output: unknown) =>
        suggestAs === null ? output : tellSuggestionOutcomes(copy.doc, call.runId, output);
      if (!isWriteTool(call.toolName)) {
        const output = runEditorToolNow(copy.editor, call.toolName, call.input);
        guard.note(copy.editor, call.toolName, checked.targets, output);
        return { output: tell(output), changes: null };
      }
      const before = snapshotBlocks(copy.editor.getEditorState());
      const from = nextClock(copy.doc);
      const output =
        suggestAs === null
          ? runToolNowAs(copy.editor, call.toolName, call.input, agent)
          : runToolAsSuggestionNow(copy.editor, call.toolName, call.input, suggestAs);
      guard.note(copy.editor, call.toolName, checked.targets, output);
      recordCall(copy.doc, key, output, copy, from);
      return {
        output: tell(output),
        changes: diffSnapshots(before, snapshotBlocks(copy.editor.getEditorState())),
      };
    },
  );
  if (changes !== null && hasChanges(changes)) {
    // Recorded with the run's edits, as a tab records its calls: Undo run takes them back too.
    await appendRunEdits(call.runId, toRunEdits(changes));
    // Co-editors see the agent at work, on the first block the call changed.
    showServerAgent(run.documentId, writerName, [...changes.inserted, ...changes.changed]);
  }
  return output;
}

/** What a call the run's end overtook answers (nobody reads it: the run is over). */
const RUN_ENDED = {
  ok: false,
  code: "internal-error",
  message: "the run ended before the server ran this call",
};

async function runOnServer(call: ServerToolCall, signal: AbortSignal): Promise<void> {
  const run = await findRun(call.runId);
  if (run === null || run.status !== "running") return;
  const access = await findDocumentAccess(run.userId, run.documentId);
  const need = isWriteTool(call.toolName) ? "edit" : "read";
  const result =
    access === null || !roleAllows(access.role, need)
      ? {
          ok: false,
          code: "internal-error",
          message: "the run's writer may no longer do this on the document",
        }
      : await runOnLiveDocument(call, run, signal);
  // The run ended (Stop, a new prompt, a result from a tab) while the call was on its way.
  if (signal.aborted) return;
  log.info("server executor: ran a call no tab took", { runId: call.runId, toolCallId: call.toolCallId });
  await recordToolResult({
    jti: randomUUID(),
    runId: call.runId,
    userId: run.userId,
    documentId: run.documentId,
    toolCallId: call.toolCallId,
    result,
    checkedByServer: true,
  });
}
