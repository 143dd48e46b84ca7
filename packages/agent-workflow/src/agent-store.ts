// Where an agent run keeps what must survive its process: the browser's tool
// results and the progress of the step that runs its model turns. The app
// plugs in its database (`configureAgentStore` at server start); without one,
// a process-local store serves (tests, scripts). Kept on globalThis because
// Next bundles route handlers and workflow steps apart.

/** A tool call's recorded result. */
export interface StoredToolResult {
  result: unknown;
}

export interface AgentStore {
  /** Records a tool call's result; false when one was already recorded (the first one wins). */
  putToolResult(runId: string, toolCallId: string, result: unknown): Promise<boolean>;
  getToolResult(runId: string, toolCallId: string): Promise<StoredToolResult | undefined>;
  /** The run's saved progress (JSON), if any. */
  loadCheckpoint(runId: string): Promise<unknown>;
  saveCheckpoint(runId: string, state: unknown): Promise<void>;
  /** Whether the writer stopped the run (seen by a step running on another instance). */
  isStopped(runId: string): Promise<boolean>;
}

function memoryStore(): AgentStore {
  const results = new Map<string, unknown>();
  const checkpoints = new Map<string, string>();
  const key = (runId: string, toolCallId: string) => `${runId}\u0000${toolCallId}`;
  return {
    async putToolResult(runId, toolCallId, result) {
      if (results.has(key(runId, toolCallId))) return false;
      results.set(key(runId, toolCallId), structuredClone(result));
      return true;
    },
    async getToolResult(runId, toolCallId) {
      const k = key(runId, toolCallId);
      return results.has(k) ? { result: structuredClone(results.get(k)) } : undefined;
    },
    async loadCheckpoint(runId) {
      const saved = checkpoints.get(runId);
      return saved === undefined ? undefined : JSON.parse(saved);
    },
    async saveCheckpoint(runId, state) {
      checkpoints.set(runId, JSON.stringify(state));
    },
    async isStopped() {
      return false;
    },
  };
}

const KEY = Symbol.for("coauthor.agent-store");

type Holder = typeof globalThis & { [KEY]?: AgentStore };

/** The store runs use in this process. */
export function agentStore(): AgentStore {
  const holder = globalThis as Holder;
  holder[KEY] ??= memoryStore();
  return holder[KEY];
}

/** Plugs in the app's durable store (call once at server start, before runs start). */
export function configureAgentStore(store: AgentStore): void {
  (globalThis as Holder)[KEY] = store;
}
