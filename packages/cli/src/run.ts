import {
  type AgentRunRequest,
  apiErrorSchema,
  isTerminalEvent,
  PROTOCOL_VERSION,
  PROTOCOL_VERSION_HEADER,
  type RunEvent,
  runStatusResponseSchema,
} from "@coauthor/types";
import { readRunEvents } from "@coauthor/types/sse";
import type { RunCommand } from "./args.ts";
import type { CliEnv } from "./env.ts";
import { createPrinter, type Write } from "./print.ts";

/** The CLI's exit codes: scripts tell a run that did not finish from a request that was refused. */
export const EXIT = { done: 0, notDone: 1, usage: 2, refused: 3 } as const;

/** How `coauthor run` ended: its exit code and, unless it finished, why. */
export interface RunOutcome {
  exitCode: number;
  message: string | null;
}

// A dropped connection is not the run's end: the run goes on on the server, so the CLI reattaches
// from the last event it printed, a few times.
const REATTACH_ATTEMPTS = 3;

/**
 * Starts a run in the background as the token's user, prints its events, and says how it ended.
 * When `stop` aborts (the CLI's Ctrl+C), the run is stopped on the server as the panel's Stop does,
 * and its end (cancelled) is still printed.
 */
export async function runFromScript(
  env: CliEnv,
  command: RunCommand,
  write: Write,
  stop?: AbortSignal,
): Promise<RunOutcome> {
  const headers = { authorization: `Bearer ${env.token}`, [PROTOCOL_VERSION_HEADER]: PROTOCOL_VERSION };
  const body: Partial<AgentRunRequest> = {
    documentId: command.documentId,
    prompt: command.prompt,
    editMode: command.suggest ? "suggest" : "direct",
    // No tab will run its tool calls: the server does, from the first one.
    background: true,
    ...(command.recipeId ? { recipeId: command.recipeId } : {}),
  };
  const started = await fetch(`${env.url}/api/llm/agent`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!started.ok || !started.body) return refused(started);
  const runId = started.headers.get("x-run-id") ?? "";
  const printer = createPrinter(write);
  const stopRun = () => void requestStop(env.url, headers, runId, printer.note);
  if (stop?.aborted) stopRun();
  else stop?.addEventListener("abort", stopRun, { once: true });
  let lastId = -1;
  let end: RunEvent | null = null;
  let stream: ReadableStream<Uint8Array> | null = started.body;
  for (let attempt = 0; stream && !end; attempt++) {
    for await (const event of readRunEvents(stream)) {
      if (event.id <= lastId) continue;
      lastId = event.id;
      printer.print(event);
      if (isTerminalEvent(event)) end = event;
    }
    printer.end();
    if (end || attempt >= REATTACH_ATTEMPTS || !runId) break;
    const again = await fetch(`${env.url}/api/llm/agent/${encodeURIComponent(runId)}/stream`, {
      headers: { ...headers, "last-event-id": String(lastId) },
    });
    if (!again.ok) return refused(again);
    stream = again.body;
  }
  if (end?.type === "finish" && end.status === "done") return { exitCode: EXIT.done, message: null };
  if (end?.type === "finish") return notDone(runId, end.status, end.summary ?? null);
  if (end?.type === "error") return notDone(runId, "failed", `${end.code}: ${end.message}`);
  // The stream ended without the run's end: ask the server where the run stands.
  const status = await fetch(`${env.url}/api/llm/agent/${encodeURIComponent(runId)}`, { headers });
  if (!status.ok) return refused(status);
  const run = runStatusResponseSchema.parse(await status.json());
  if (run.status === "done") return { exitCode: EXIT.done, message: null };
  return notDone(runId, run.status, run.summary);
}

/** Asks the server to stop the run (DELETE, as the panel's Stop); the stream then ends with it. */
async function requestStop(
  url: string,
  headers: Record<string, string>,
  runId: string,
  note: (line: string) => void,
): Promise<void> {
  note("· stopping the run…");
  try {
    const response = await fetch(`${url}/api/llm/agent/${encodeURIComponent(runId)}`, {
      method: "DELETE",
      headers,
    });
    await response.arrayBuffer();
    if (response.status !== 204) note(`· the server did not stop the run (HTTP ${response.status})`);
  } catch (error) {
    note(
      `· could not reach the server to stop the run: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function notDone(runId: string, status: string, summary: string | null): RunOutcome {
  const why = summary ? ` (${summary})` : "";
  return { exitCode: EXIT.notDone, message: `run ${runId} did not finish: ${status}${why}` };
}

// What each refusal means for the person running the script.
const HINTS: Record<number, string> = {
  401: "COAUTHOR_TOKEN was refused: it is unknown, revoked or expired (make one on the account page)",
  403: "the token's account may not run the agent on this document (viewers and commenters cannot)",
  404: "no such document (or recipe) for the token's account",
  409: "the server refused the run as it stands (see the message)",
  429: "too many runs: wait and try again",
};

async function refused(response: Response): Promise<RunOutcome> {
  const text = await response.text();
  const parsed = apiErrorSchema.safeParse(safeJson(text));
  const said = parsed.success ? `${parsed.data.code}: ${parsed.data.message}` : text.slice(0, 200);
  const hint = HINTS[response.status];
  return {
    exitCode: EXIT.refused,
    message: `HTTP ${response.status} ${said}${hint ? `\n${hint}` : ""}`,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // Not JSON (a proxy's HTML page): the caller shows the text itself.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
