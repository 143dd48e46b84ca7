import { createHash } from "node:crypto";
import { readdir, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import { localHookFileSchema, localRunStreamsSchema } from "@coauthor/types";

// The local world (@workflow/world-local 4.4) has no API to delete one run: `clear()` empties the
// whole data folder. So this removes exactly the files the world keeps for the given runs, by the
// layout it writes (checked against its sources, see docs/security.md, Deletion deletes):
//   runs/<runId>.json                       the run (its input: the prompt, the document id)
//   events|steps|waits/<runId>-<id>.json     its event log and step records (step results)
//   hooks/<hookId>.json (+ hooks/tokens/<sha256(token)>.json)  its open hooks, if any
//   streams/runs/<runId>.json               the names of its streams
//   streams/chunks/<stream>-<chunkId>.bin   the stream chunks (every SSE frame the run sent)
//   .locks/steps|waits/<runId>-<id>.*        empty lock files named after the run
// Stream names are `strm_<the run's ULID>_<suffix>`, so chunks a step wrote after the run's stream
// list was removed are found by that prefix too. Files of other runs are never touched.

/** Removes a file; one that is already gone is what we wanted (false: there was none). */
async function removeFile(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return false;
  }
}

/** The names in a folder (none when the world never created it). */
async function namesIn(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** A JSON file's content, or null when it is gone. */
async function readJsonFile(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * What to remove: "everything" the world keeps of a run, or only its "engine-state" (events, step
 * records, waits, hooks, locks), keeping what its log is read from (the run file and its streams).
 */
export type LocalWorldPurge = "everything" | "engine-state";

/** Removes the stream chunk files of `runIds`. */
async function streamChunkRemovals(dataDir: string, runIds: readonly string[]): Promise<Promise<boolean>[]> {
  // Stream chunk files start with a stream name; a run's stream names start with its ULID.
  const streamPrefixes = runIds.map((runId) => `strm_${runId.slice("wrun_".length)}_`);
  for (const runId of runIds) {
    const listed = localRunStreamsSchema.safeParse(
      await readJsonFile(join(dataDir, "streams", "runs", `${runId}.json`)),
    );
    if (listed.success) streamPrefixes.push(...listed.data.streams.map((name) => `${name}-`));
  }
  const chunks = join(dataDir, "streams", "chunks");
  return (await namesIn(chunks))
    .filter((name) => streamPrefixes.some((prefix) => name.startsWith(prefix)))
    .map((name) => removeFile(join(chunks, name)));
}

/**
 * Removes the files of `runIds` (already checked against workflowRunIdSchema) from the local world
 * at `dataDir`; returns how many files it removed.
 */
export async function purgeLocalWorldRuns(
  dataDir: string,
  runIds: readonly string[],
  what: LocalWorldPurge = "everything",
): Promise<number> {
  if (runIds.length === 0) return 0;
  const ids = new Set(runIds);
  const prefixes = runIds.map((runId) => `${runId}-`);
  const removals: Promise<boolean>[] = [];
  // The empty lock files that guard a step's or wait's last transition are named after the run too.
  for (const folder of ["events", "steps", "waits", join(".locks", "steps"), join(".locks", "waits")]) {
    for (const name of await namesIn(join(dataDir, folder))) {
      if (prefixes.some((prefix) => name.startsWith(prefix)))
        removals.push(removeFile(join(dataDir, folder, name)));
    }
  }
  if (what === "everything") removals.push(...(await streamChunkRemovals(dataDir, runIds)));
  // Hook files are named by hook id; the run they belong to is inside.
  const hooks = join(dataDir, "hooks");
  for (const name of await namesIn(hooks)) {
    if (!name.endsWith(".json")) continue;
    const hook = localHookFileSchema.safeParse(await readJsonFile(join(hooks, name)));
    if (!hook.success || !ids.has(hook.data.runId)) continue;
    const { token } = hook.data;
    if (token) {
      const tokenFile = `${createHash("sha256").update(token).digest("hex")}.json`;
      removals.push(removeFile(join(hooks, "tokens", tokenFile)));
    }
    removals.push(removeFile(join(hooks, name)));
  }
  const removed = (await Promise.all(removals)).filter(Boolean).length;
  if (what === "engine-state") return removed;
  // The run and its stream list last: while they exist, a purge that failed midway is visibly unfinished.
  const lastRemoved = await Promise.all(
    runIds.flatMap((runId) => [
      removeFile(join(dataDir, "streams", "runs", `${runId}.json`)),
      removeFile(join(dataDir, "runs", `${runId}.json`)),
    ]),
  );
  return removed + lastRemoved.filter(Boolean).length;
}
