import { log } from "@coauthor/agent-workflow";
import { abortRun, notifyStop } from "@coauthor/agent-workflow/server";
import { and, eq, gt, not, or, sql } from "drizzle-orm";
import { getRun } from "workflow/api";
import { env } from "@/env";
import { recordRunEnd } from "@/server/agent/run-control";
import { type Database, getDb } from "@/server/db";
import { runs } from "@/server/db/schema";
import { apiError } from "@/server/http/errors";
import { countRunRefused } from "@/server/observability/run-metrics";
import { type JobCapacity, jobCapacity } from "@/server/workflow/job-capacity";

// A run still marked running after this long died without saying so; it no longer counts.
const RUN_STALE_MS = 15 * 60_000;
const SUPERSEDED_REASON = "superseded by a new prompt";

/** The run a request asks for (the row recorded for it). */
export interface RunToAdmit {
  userId: string;
  documentId: string;
  prompt: string;
  model: string;
}

/** Why a run was not admitted: the cap it would pass, or no capacity (a 429 or 503 the route sends as is). */
class CapReached extends Error {
  readonly response: Response;
  constructor(response: Response) {
    super("run cap reached");
    this.response = response;
  }
}

// Admissions are serialised per writer and per document for the rest of the transaction (any
// instance on the same database), under these advisory-lock keys. PGlite needs none: it runs one
// transaction at a time, and nothing else reaches its database meanwhile.
const userLock = (userId: string) => sql`hashtextextended(${`coauthor:runs:user:${userId}`}, 0)`;
const documentLock = (documentId: string) =>
  sql`hashtextextended(${`coauthor:runs:document:${documentId}`}, 0)`;
const sharedDatabase = () => env.DATABASE_URL !== undefined;

/**
 * Holds the document's admission lock for the rest of `tx`: no run of the document is admitted
 * meanwhile (document deletion collects the document's runs under it, so none slips past).
 */
export async function lockDocumentAdmissions(tx: Database, documentId: string): Promise<void> {
  if (sharedDatabase()) await tx.execute(sql`select pg_advisory_xact_lock(${documentLock(documentId)})`);
}

/** Takes the writer's lock, then the document's (always in that order: no deadlock), in one statement. */
async function lockAdmissions(tx: Database, run: RunToAdmit): Promise<void> {
  if (!sharedDatabase()) return;
  await tx.execute(
    sql`select pg_advisory_xact_lock(${userLock(run.userId)}), pg_advisory_xact_lock(${documentLock(run.documentId)})`,
  );
}

/**
 * Cancels the writer's runs in flight on the document (a new prompt supersedes them) and counts the
 * runs the writer and the document still have going, in one statement. The count reads the table
 * as it was before the cancel (a data-modifying CTE's changes are not visible to its query), so it
 * leaves out the writer's runs on this document: those are the ones being cancelled.
 */
async function supersedeAndCount(
  tx: Database,
  run: RunToAdmit,
): Promise<{ cancelled: string[]; byUser: number; byDocument: number }> {
  const own = sql`(${runs.userId} = ${run.userId} and ${runs.documentId} = ${run.documentId})`;
  const cancelling = tx.$with("cancelled").as(
    tx
      .update(runs)
      .set({ status: "cancelled", finishedAt: new Date() })
      .where(and(own, eq(runs.status, "running")))
      .returning({ id: runs.id }),
  );
  const live = and(eq(runs.status, "running"), gt(runs.createdAt, new Date(Date.now() - RUN_STALE_MS)));
  const byUser = eq(runs.userId, run.userId);
  const byDocument = eq(runs.documentId, run.documentId);
  const [row] = await tx
    .with(cancelling)
    .select({
      cancelled: sql<string[]>`coalesce((select json_agg(id) from ${cancelling}), '[]'::json)`,
      byUser: sql<number>`count(*) filter (where ${byUser})`.mapWith(Number),
      byDocument: sql<number>`count(*) filter (where ${byDocument})`.mapWith(Number),
    })
    .from(runs)
    .where(and(live, or(byUser, byDocument), not(own)));
  return { cancelled: row?.cancelled ?? [], byUser: row?.byUser ?? 0, byDocument: row?.byDocument ?? 0 };
}

/**
 * The 503 when every job slot of the deployment is taken (Postgres world), counting the slots
 * of the runs this admission supersedes as free, or null when the run has a slot.
 */
function capacityRefusal(capacity: JobCapacity | null, superseded: number): Response | null {
  if (!capacity || capacity.busy - superseded < capacity.slots) return null;
  log.warn("run refused: every job slot is taken", { ...capacity });
  countRunRefused("capacity");
  return apiError(
    503,
    "unavailable:capacity",
    "every server is busy with other runs right now; try again in a minute",
    { "Retry-After": "30" },
  );
}

/** The 429 for a cap that is full, or null when the run fits. */
function capRefusal(live: { byUser: number; byDocument: number }): Response | null {
  if (live.byUser >= env.MAX_CONCURRENT_RUNS_PER_USER) {
    countRunRefused("user_runs");
    return apiError(
      429,
      "rate_limited:concurrent_runs",
      `you have ${env.MAX_CONCURRENT_RUNS_PER_USER} runs going, the most allowed; stop one first`,
      { "Retry-After": "5" },
    );
  }
  if (live.byDocument >= env.MAX_CONCURRENT_RUNS_PER_DOCUMENT) {
    countRunRefused("document_runs");
    return apiError(
      429,
      "rate_limited:document_runs",
      `this document has ${env.MAX_CONCURRENT_RUNS_PER_DOCUMENT} runs going, the most allowed; wait for one to end`,
      { "Retry-After": "5" },
    );
  }
  return null;
}

/** Records the end of the writer's runs on the document that are over (a finish frame goes out before the engine says so). */
async function settleEndedRuns(db: Database, run: RunToAdmit): Promise<void> {
  const own = await db
    .select({ id: runs.id })
    .from(runs)
    .where(and(eq(runs.userId, run.userId), eq(runs.documentId, run.documentId), eq(runs.status, "running")));
  await Promise.all(own.map((row) => recordRunEnd(row.id)));
}

/**
 * Admits a new agent run under the caps (MAX_CONCURRENT_RUNS_PER_USER / _PER_DOCUMENT) and, on the
 * Postgres world, the deployment's job slots, and starts it with `start`, or answers 429 (a cap) or
 * 503 (no slot) and starts and stores nothing. A writer's new prompt on a
 * document supersedes their own run in flight there (it is cancelled), so it never counts against
 * them. Atomic on one instance and on several: one transaction takes an advisory lock on the
 * writer and one on the document (always in that order, so two admissions cannot deadlock; on
 * PGlite the transaction alone serialises them), then cancels and counts in one statement, starts
 * the workflow and records its row. On PostgreSQL, admissions for the same writer or document wait
 * for each other; everything else goes on. The job slots are read just before: a
 * soft bound (two admissions at once may both take the last slot; the later run then waits for
 * one), where the caps are exact.
 */
export async function admitRun<Started extends { runId: string }>(
  run: RunToAdmit,
  start: () => Promise<Started>,
): Promise<{ ok: true; started: Started } | { ok: false; response: Response }> {
  const db = await getDb();
  await settleEndedRuns(db, run);
  // Read before the transaction: a transaction waiting on another connection of the same pool
  // would hold its own meanwhile, and a burst of admissions would take them all.
  const capacity = await jobCapacity();
  let startedRunId: string | undefined;
  let admitted: { started: Started; superseded: string[] };
  try {
    admitted = await db.transaction(async (tx) => {
      await lockAdmissions(tx, run);
      const { cancelled, ...live } = await supersedeAndCount(tx, run);
      const refusal = capRefusal(live) ?? capacityRefusal(capacity, cancelled.length);
      // Thrown to roll back: a refused prompt cancels nothing either.
      if (refusal) throw new CapReached(refusal);
      const started = await start();
      startedRunId = started.runId;
      await tx.insert(runs).values({ id: started.runId, ...run });
      return { started, superseded: cancelled };
    });
  } catch (error) {
    if (error instanceof CapReached) return { ok: false, response: error.response };
    if (startedRunId) {
      // Started but not recorded: nobody may answer or follow it, so stop it rather than leave it working.
      abortRun(startedRunId, "the run could not be recorded");
      await getRun(startedRunId).cancel();
    }
    throw error;
  }
  for (const runId of admitted.superseded) {
    // Recorded as cancelled above; interrupt it here at once and tell the other instances.
    abortRun(runId, SUPERSEDED_REASON);
    notifyStop(runId);
    log.info("run superseded by a new prompt", { runId, by: admitted.started.runId });
  }
  return { ok: true, started: admitted.started };
}
