// What a smoke pass (`--smoke`) holds the bench to: not its figures, which tiny sizes make noise,
// but that every section did its work. A run that did not finish, a figure not taken or a load pass
// with runs left undone means the harness no longer drives the app — what the smoke pass is for —
// and the full bench would print a table of gaps.

// The notes a section leaves where its work was not done (agent-loop.ts, naive.ts, peer.ts,
// worlds.ts, concurrency.ts).
const UNDONE_NOTE = /^(not finished|not taken|memory not read)/;

/** Every place in `value` (a bench's results) where work was left undone, as `path: why`. */
export function undoneWork(value: unknown, path = "results"): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => undoneWork(item, `${path}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  const found: string[] = [];
  const { note, completed, runs, outcomes } = value as Record<string, unknown>;
  if (typeof note === "string" && UNDONE_NOTE.test(note)) found.push(`${path}: ${note}`);
  if (typeof completed === "number" && typeof runs === "number" && completed < runs)
    found.push(`${path}: ${completed} of ${runs} runs done (${String(outcomes ?? "")})`);
  for (const [key, child] of Object.entries(value)) found.push(...undoneWork(child, `${path}.${key}`));
  return found;
}
