// What the server runs itself instead of a writer's tab, through the app's executor (plugged in at
// server start by `configureAgent`; the package reads no document or database itself):
// - the comment and version tools, always (threads are written, and versions kept, only by the
//   server, which checks who asks);
// - any other tool call that no tab of the writer takes: once announced, a call is offered to the
//   server, which runs it when no tab holds the run's lease (the writer closed it, lost the network),
//   so a run goes on without a browser. Exactly one executor runs each call: the first result
//   recorded wins, and the shared document records which write calls ran.

/** One call of a tool, with the run it belongs to. */
export interface ServerToolCall {
  runId: string;
  /** The call's id in the run: what the executor creates derives from it, so a call run again after a restart does nothing twice. */
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export interface ServerToolExecutor {
  /** Runs a comment or version tool and answers with its result (an `{ ok: false, code, message }` failure included). */
  runServerTool: (call: ServerToolCall) => Promise<unknown>;
  /**
   * Runs an announced call on the server if no tab takes it (the executor decides when: a tab holding
   * the run's lease keeps it), recording its result as a tab's would be; stops trying once `signal`
   * aborts (a result came, the run stopped).
   */
  offerToServer: (call: ServerToolCall, signal: AbortSignal) => void;
}

const KEY = Symbol.for("coauthor.server-tool-executor");
type Holder = typeof globalThis & { [KEY]?: ServerToolExecutor };

export function configureServerToolExecutor(executor: ServerToolExecutor): void {
  (globalThis as Holder)[KEY] = executor;
}

/** Runs a comment or version tool on this server; a failure result when no executor is configured. */
export async function runServerTool(call: ServerToolCall): Promise<unknown> {
  const executor = (globalThis as Holder)[KEY];
  if (!executor) {
    return { ok: false, code: "internal-error", message: `${call.toolName} is not available on this server` };
  }
  return executor.runServerTool(call);
}

/** Offers an announced call to the server (nothing without an executor: tabs only). */
export function offerToServer(call: ServerToolCall, signal: AbortSignal): void {
  (globalThis as Holder)[KEY]?.offerToServer(call, signal);
}
