import postgres from "postgres";
import { DATABASE_LINK_OPTIONS } from "@/server/db/link-options";

// The Postgres world (@workflow/world-postgres 4.3) has no API to delete a run either; it keeps
// each run in the `workflow` schema, every table keyed by the run's id: workflow_runs (id: the
// input and output), workflow_events / workflow_steps / workflow_hooks / workflow_waits (run_id:
// the event log, step inputs and results) and workflow_stream_chunks (run_id, and stream ids
// `strm_<the run's ULID>_<suffix>`: every SSE frame). This deletes those rows and nothing else,
// in one transaction, so a run is either wholly there or wholly gone.

const KEY = Symbol.for("coauthor.world-postgres-purge");
type Holder = typeof globalThis & { [KEY]?: postgres.Sql };

function connection(url: string): postgres.Sql {
  const holder = globalThis as Holder;
  holder[KEY] ??= postgres(url, { ...DATABASE_LINK_OPTIONS, max: 2 });
  return holder[KEY];
}

/** `_` and `%` are LIKE wildcards; a stream prefix must match itself only. */
const likePrefix = (prefix: string) => `${prefix.replaceAll("\\", "\\\\").replaceAll("_", "\\_")}%`;

/**
 * Deletes the rows of `runIds` (already checked against workflowRunIdSchema) from the Postgres world
 * at `url`; returns how many rows it deleted.
 */
export async function purgePostgresWorldRuns(url: string, runIds: readonly string[]): Promise<number> {
  if (runIds.length === 0) return 0;
  const ids = [...runIds];
  const streams = ids.map((runId) => likePrefix(`strm_${runId.slice("wrun_".length)}_`));
  return connection(url).begin(async (sql) => {
    const deletions = [
      await sql`delete from workflow.workflow_stream_chunks where run_id = any(${ids}) or stream_id like any(${streams})`,
      await sql`delete from workflow.workflow_events where run_id = any(${ids})`,
      await sql`delete from workflow.workflow_steps where run_id = any(${ids})`,
      await sql`delete from workflow.workflow_hooks where run_id = any(${ids})`,
      await sql`delete from workflow.workflow_waits where run_id = any(${ids})`,
      await sql`delete from workflow.workflow_runs where id = any(${ids})`,
    ];
    return deletions.reduce((sum, deleted) => sum + deleted.count, 0);
  });
}
