import { log } from "@coauthor/agent-workflow";
import { abandonRunStart, abortRun, notifyStop } from "@coauthor/agent-workflow/server";
import type { EditMode } from "@coauthor/types";
import { and, eq, gt, or, sql } from "drizzle-orm";
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
  editMode: EditMode;
  /** Who executes its tool calls (see the `executor` column). */
  executor: "tab" | "server";
  /** The comment thread it answers (asked there with `@Coauthor`), or null. */
  threadId: string | null;
}

// On PostgreSQL, admissions are serialised per writer and per document for the rest of their
// transaction (any instance on the same database), under these advisory-lock keys.
const userLock = (userId: string) => sql`hashtextextended(${`coauthor:runs:user:${userId}`}, 0)`;
const documentLock = (documentId: string) =>
  sql`hashtextextended(${`coauthor:runs:document:${documentId}`}, 0)`;
/** Whether several instances may share the database (PostgreSQL); PGlite belongs to this process. */
const sharedDatabase = () => env.DATABASE_URL !== undefined;

/**
 * Holds the document's admission lock for the rest of `tx`: no run of the document is admitted
 * meanwhile (document deletion collects the document's runs under it, so none slips past). On
 * PGlite an admission that counted before the deletion cannot record its run after it: the run's
 * row needs its document.
 */
export async function lockDocumentAdmissions(tx: Database, documentId: string): Promise<void> {
  if (sharedDatabase()) await tx.execute(sql`select pg_advisory_xact_lock(${documentLock(documentId)})`);
}

/** Takes the writer's lock, then the document's (always in that order: no deadlock), in one statement. */
async function lockAdmissions(tx: Database, run: RunToAdmit): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(${userLock(run.userId)}), pg_advisory_xact_lock(${documentLock(run.documentId)})`,
  );
}

const ADMISSIONS = Symbol.for("coauthor.admissions");
type AdmissionsHolder = typeof globalThis & { [ADMISSIONS]?: Promise<void> };

/**
 * Runs `admit` once the admissions before it in this process are done. PGlite's admissions queue
 * here instead of in a transaction: PGlite runs one transaction at a time, so one held while the
 * engine starts the run would stall every other query of the app meanwhile.
 */
function afterEarlierAdmissions<T>(admit: () => Promise<T>): Promise<T> {
  const holder = globalThis as AdmissionsHolder;
  const turn = (holder[ADMISSIONS] ?? Promise.resolve()).then(admit);
  // The next admission waits for this one whatever its outcome (its caller gets the outcome).
  holder[ADMISSIONS] = turn.then(
    () => undefined,
    () => undefined,
  );
  return turn;
}

/**
 * How many runs the writer and the document have going, besides the writer's own on this document
 * (a new prompt supersedes those: `own`, how many).
 */
async function liveRuns(
  db: Database,
  run: RunToAdmit,
): Promise<{ byUser: number; byDocument: number; own: number }> {
  const own = sql`(${runs.userId} = ${run.userId} and ${runs.documentId} = ${run.documentId})`;
  const byUser = sql`${runs.userId} = ${run.userId} and not ${own}`;
  const byDocument = sql`${runs.documentId} = ${run.documentId} and not ${own}`;
  const [row] = await db
    .select({
      byUser: sql<number>`count(*) filter (where ${byUser})`.mapWith(Number),
      byDocument: sql<number>`count(*) filter (where ${byDocument})`.mapWith(Number),
      own: sql<number>`count(*) filter (where ${own})`.mapWith(Number),
    })
    .from(runs)
    .where(
      and(
        eq(runs.status, "running"),
        gt(runs.createdAt, new Date(Date.now() - RUN_STALE_MS)),
        or(eq(runs.userId, run.userId), eq(runs.documentId, run.documentId)),
      ),
    );
  return { byUser: row?.byUser ?? 0, byDocument: row?.byDocument ?? 0, own: row?.own ?? 0 };
}

/**
 * Records an admitted run and cancels the writer's runs in flight on the document (its prompt
 * supersedes them), in one statement; returns the ids of those it cancelled.
 */
async function recordAdmitted(db: Database, run: RunToAdmit, runId: string): Promise<string[]> {
  const cancelling = db.$with("cancelled").as(
    db
      .update(runs)
      .set({ status: "cancelled", finishedAt: new Date() })
      .where(
        and(eq(runs.userId, run.userId), eq(runs.documentId, run.documentId), eq(runs.status, "running")),
      )
      .returning({ id: runs.id }),
  );
  // A data-modifying CTE runs whether or not the query reads it; the cancel's snapshot does not
  // see the row inserted beside it.
  const recording = db.$with("recorded").as(
    db
      .insert(runs)
      .values({ id: runId, ...run })
      .returning({ id: runs.id }),
  );
  const [row] = await db
    .with(cancelling, recording)
    .select({ cancelled: sql<string[]>`coalesce((select json_agg(id) from ${cancelling}), '[]'::json)` })
    .from(recording);
  if (!row) throw new Error(`the run ${runId} was not recorded`);
  return row.cancelled;
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
 * 503 (no slot) and starts and stores nothing. A writer's new prompt on a document supersedes
 * their own run in flight there (it is cancelled), so it never counts against them. Counts, then
 * starts the workflow, then records its row and cancels the superseded runs in one statement —
 * with no other admission of the writer or the document in between: on PostgreSQL (one instance
 * or several) inside one transaction that takes an advisory lock on the writer and one on the
 * document (always in that order, so two admissions cannot deadlock), on PGlite after this
 * process's earlier admissions. The job slots are read just before: a soft bound (two admissions
 * at once may both take the last slot; the later run then waits for one), where the caps are exact.
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
  const admit = async (db: Database) => {
    const live = await liveRuns(db, run);
    const refusal = capRefusal(live) ?? capacityRefusal(capacity, live.own);
    if (refusal) return { ok: false as const, response: refusal };
    const started = await start();
    startedRunId = started.runId;
    return { ok: true as const, started, superseded: await recordAdmitted(db, run, started.runId) };
  };
  let admitted: Awaited<ReturnType<typeof admit>>;
  try {
    admitted = sharedDatabase()
      ? await db.transaction(async (tx) => {
          await lockAdmissions(tx, run);
          return admit(tx);
        })
      : await afterEarlierAdmissions(() => admit(db));
  } catch (error) {
    if (startedRunId) {
      // Started but not recorded: nobody may answer or follow it, so stop it rather than leave it working.
      abortRun(startedRunId, "the run could not be recorded");
      abandonRunStart(startedRunId, "the run could not be recorded");
      await getRun(startedRunId).cancel();
    }
    throw error;
  }
  if (!admitted.ok) return admitted;
  for (const runId of admitted.superseded) {
    // Recorded as cancelled above; interrupt it here at once and tell the other instances.
    abortRun(runId, SUPERSEDED_REASON);
    notifyStop(runId);
    log.info("run superseded by a new prompt", { runId, by: admitted.started.runId });
  }
  return { ok: true, started: admitted.started };
}
