// Where an agent run keeps what must survive its process: the browser's tool
// results and the progress of the step that runs its model turns. The app
// plugs in its database (`configureAgent` at server start); without one,
// a process-local store serves (tests, scripts). Kept on globalThis because
// Next bundles route handlers and workflow steps apart.

/** A tool call's recorded result. */
export interface StoredToolResult {
  result: unknown;
}

/** A step's saved progress: its state, and the conversation it appended so far (in order). */
export interface SavedProgress {
  segment: number;
  state: unknown;
  messages: unknown[];
  /** A planning agent's plan decision for this segment, saved once with its first state. */
  planning?: unknown;
}

/** A step's progress as JSON text, to be saved (see `AgentStore.saveProgress`). */
export interface ProgressToSave {
  state: string;
  messages: { from: number; json: string };
  planning?: string;
}

/** A tool result as it is recorded: once per hook token (its `jti`), with its body's hash. */
export interface ToolResultClaim {
  jti: string;
  runId: string;
  /** The run's writer and document as the hook token names them: recorded only for a run of theirs. */
  userId: string;
  documentId: string;
  toolCallId: string;
  /** Hash of the result (a replay of the same body is told apart from a different one). */
  bodyHash: string;
  result: unknown;
  /**
   * The step waiting for this result, in this process, goes straight on to a model turn: the
   * claim also marks the run's saved progress as in its model phase (when it is waiting on tools),
   * the mark that step would otherwise write itself (see `listenForToolResult`).
   */
  markModelPhase?: boolean;
  /**
   * The server executed the call and checked the writer's rights for that very tool first (reads
   * need read access, writes edit access): the store does not ask for edit rights again, so a run
   * of a commenter (asked from a comment) can read and comment. Results posted by tabs never carry it.
   */
  checkedByServer?: true;
}

/**
 * First use, a replay of the same body, a different body with a used token, a run that no longer
 * exists, or a result the store would not record (the run no longer takes results: it ended, or
 * its writer may no longer edit its document).
 */
export type ClaimOutcome = "claimed" | "replay" | "conflict" | "gone" | "refused";

/**
 * What runs read and write. Tool results are recorded through `recordToolResult`
 * (tool-results.ts), which claims the token here; runs only read them.
 */
export interface AgentStore {
  /**
   * Records a result with its token's claim, atomically: the first claim of a `jti` wins, and only
   * while the run takes results (checked in the same step as the claim).
   */
  claimToolResult(claim: ToolResultClaim): Promise<ClaimOutcome>;
  getToolResult(runId: string, toolCallId: string): Promise<StoredToolResult | undefined>;
  /** The run's saved progress, if any. */
  loadProgress(runId: string): Promise<SavedProgress | undefined>;
  /**
   * Saves a step's progress, given as JSON text (taken when the save was asked
   * for, so the step may go on changing its state), atomically: the state
   * replaces the last one, and `messages` (a JSON array) is appended to the
   * segment's conversation at position `from` (saved positions are kept).
   * `planning`, given with a segment's first save, is kept by the segment's
   * later saves (which leave it out: it never changes, and is most of a
   * checkpoint's size); a new segment drops it.
   */
  saveProgress(runId: string, segment: number, progress: ProgressToSave): Promise<void>;
  /** Whether the writer stopped the run (seen by a step running on another instance). */
  isStopped(runId: string): Promise<boolean>;
}

function memoryStore(): AgentStore {
  const claims = new Map<string, ToolResultClaim>();
  const results = new Map<string, unknown>();
  const progress = new Map<
    string,
    { segment: number; state: string; messages: string[]; planning?: string }
  >();
  const key = (runId: string, toolCallId: string) => `${runId}\u0000${toolCallId}`;
  return {
    async claimToolResult(claim) {
      const earlier = claims.get(claim.jti);
      if (earlier) return earlier.bodyHash === claim.bodyHash ? "replay" : "conflict";
      claims.set(claim.jti, claim);
      results.set(key(claim.runId, claim.toolCallId), structuredClone(claim.result));
      const saved = progress.get(claim.runId);
      if (claim.markModelPhase && saved) {
        const state = JSON.parse(saved.state) as { phase?: string };
        if (state.phase === "tools") saved.state = JSON.stringify({ ...state, phase: "model" });
      }
      return "claimed";
    },
    async getToolResult(runId, toolCallId) {
      const k = key(runId, toolCallId);
      return results.has(k) ? { result: structuredClone(results.get(k)) } : undefined;
    },
    async loadProgress(runId) {
      const saved = progress.get(runId);
      if (!saved) return undefined;
      return {
        segment: saved.segment,
        state: JSON.parse(saved.state),
        messages: saved.messages.map((m) => JSON.parse(m)),
        ...(saved.planning === undefined ? {} : { planning: JSON.parse(saved.planning) }),
      };
    },
    async saveProgress(runId, segment, { state, messages: added, planning }) {
      const saved = progress.get(runId);
      const sameSegment = saved?.segment === segment;
      const messages = sameSegment ? saved.messages.slice(0, added.from) : [];
      messages.push(...(JSON.parse(added.json) as unknown[]).map((m) => JSON.stringify(m)));
      const kept = planning ?? (sameSegment ? saved.planning : undefined);
      progress.set(runId, { segment, state, messages, planning: kept });
    },
    async isStopped() {
      return false;
    },
  };
}

const KEY = Symbol.for("coauthor.agent-store");
const MEMORY = Symbol.for("coauthor.agent-store.memory");

type Holder = typeof globalThis & { [KEY]?: AgentStore; [MEMORY]?: AgentStore };

/** This process's own store (the default one). */
export function memoryAgentStore(): AgentStore {
  const holder = globalThis as Holder;
  holder[MEMORY] ??= memoryStore();
  return holder[MEMORY];
}

/** The store runs use in this process. */
export function agentStore(): AgentStore {
  const holder = globalThis as Holder;
  holder[KEY] ??= memoryAgentStore();
  return holder[KEY];
}

/** Plugs in the app's durable store (call once at server start, before runs start). */
export function configureAgentStore(store: AgentStore): void {
  (globalThis as Holder)[KEY] = store;
}
