import { z } from "zod";

// Tool calls this tab has run, by `runId:toolCallId`, with their result: in memory (outlives a
// remount of the panel and a server restart) and in sessionStorage (outlives a reload of the tab).
// A call whose result could not be delivered is posted again after a reconnect, never run twice.
const executedTools = new Map<string, ExecutedTool>();
const executedToolSchema = z.object({ result: z.unknown(), delivered: z.boolean() });
export type ExecutedTool = z.infer<typeof executedToolSchema>;
const STORAGE_PREFIX = "coauthor:tool-result:";

function tabStorage(): Storage | null {
  return typeof sessionStorage === "undefined" ? null : sessionStorage;
}

/** The tool call `runId:toolCallId` this tab already ran (and whether its result was delivered). */
export function recallTool(key: string): ExecutedTool | undefined {
  const known = executedTools.get(key);
  if (known) return known;
  const stored = tabStorage()?.getItem(STORAGE_PREFIX + key);
  if (!stored) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(stored);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    console.warn(`[assistant] ignoring an unreadable stored result for ${key}`);
    return undefined;
  }
  const parsed = executedToolSchema.safeParse(json);
  if (!parsed.success) return undefined;
  executedTools.set(key, parsed.data);
  return parsed.data;
}

/** Records that this tab ran a tool call, with its result (and, later, that it was delivered). */
export function rememberTool(key: string, record: ExecutedTool): void {
  executedTools.set(key, record);
  try {
    tabStorage()?.setItem(STORAGE_PREFIX + key, JSON.stringify(record));
  } catch (error) {
    // A full storage only loses the reload case; the in-memory record still covers reconnects.
    console.warn("[assistant] could not keep a tool result for a reload:", error);
  }
}

/** Forgets the tool results of a run that has ended. */
export function forgetRunTools(runId: string): void {
  const prefix = `${runId}:`;
  for (const key of [...executedTools.keys()]) if (key.startsWith(prefix)) executedTools.delete(key);
  const storage = tabStorage();
  if (!storage) return;
  const stale: string[] = [];
  for (let index = 0; index < storage.length; index++) {
    const key = storage.key(index);
    if (key?.startsWith(STORAGE_PREFIX + prefix)) stale.push(key);
  }
  for (const key of stale) storage.removeItem(key);
}
