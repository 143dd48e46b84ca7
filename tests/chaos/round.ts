// One round of the chaos run: fresh documents, writers and agent runs spread over both instances
// while the nemesis injects the round's faults; then, with every fault healed and everything
// quiet, the invariants are checked and every violation is returned.
import type postgres from "postgres";
import type { AppServer } from "../lib/app-server.ts";
import type { FaultProxy } from "../lib/fault-proxy.ts";
import type { SyncClient } from "../lib/sync-client.ts";
import type { ChaosRun } from "./agent-runs.ts";
import { checkDocument, SETTLE_MS, settle } from "./document-checks.ts";
import { megabytes, settledMemory } from "./memory.ts";
import { Nemesis } from "./nemesis.ts";
import type { ObservedClient, ServerErrorAnswer } from "./observed-client.ts";
import { Participant } from "./participants.ts";
import { Random } from "./random.ts";
import { askAgent, write } from "./round-work.ts";
import type { RoundPlan } from "./schedule.ts";

/** Memory of an instance after a round may exceed what it was before by this much (a leak otherwise). */
const MEMORY_GROWTH_LIMIT = 0.2;
/** How long an instance's memory gets to come back down after the round. */
const MEMORY_SETTLE_MS = 30_000;
/** How long a run may still be marked running in storage once its driver is done with it. */
const RUN_END_MS = 45_000;

const _pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** What a round runs on: the instances, the proxies in front of their services, and the users. */
export interface ChaosWorld {
  servers: AppServer[];
  postgres: FaultProxy;
  redis: FaultProxy;
  /** Per instance, the proxy its slow clients go through. */
  slow: FaultProxy[];
  /** The test database, directly (storage is read without any instance). */
  sql: postgres.Sql;
  /** Signed-in users (on instance 0); account 0 owns the documents. Enough for every participant. */
  accounts: ObservedClient[];
  /** Every 5xx any client got, in order. */
  serverErrors: ServerErrorAnswer[];
  log: (line: string) => void;
}

/** A broken invariant. */
export interface Violation {
  invariant: string;
  detail: string;
}

export interface RoundOutcome {
  plan: RoundPlan;
  /** The instances that are new processes since the round began (restarted by the nemesis). */
  restarted: number[];
  /** How many 5xx answers clients got during the round (each must have its error in the log). */
  serverErrors: number;
  /** Each instance's memory before and after the round (after a full collection), when measured. */
  memory: { before: number; after: number }[];
  violations: Violation[];
  seconds: number;
  edits: number;
  runs: ChaosRun[];
}

/** The user of `account` on instance `instance`, directly or through its slow proxy. */
export function clientOn(world: ChaosWorld, account: ObservedClient, instance: number, slow = false) {
  const server = world.servers[instance] as AppServer;
  const url = slow ? (world.slow[instance] as FaultProxy).route(server.url) : server.url;
  return account.sameUserOn(url, server, instance);
}

function accountOf(world: ChaosWorld, index: number): ObservedClient {
  const account = world.accounts[index];
  if (!account) throw new Error(`the run has no account ${index} (participants need one each)`);
  return account;
}

/** Whether a stretch of an instance's log holds an error (a structured error line, or an unstructured one). */
function logsAnError(text: string): boolean {
  return text
    .split("\n")
    .some((line) => line.includes('"level":"error"') || (!line.startsWith("{") && /error|⨯/i.test(line)));
}

/**
 * Runs round `plan` on `world`. Memory is compared for the instances that were the same process
 * through this round and the one before: not for those in `coldInstances` (started again during
 * the round before: their baseline would be a process still warming up), nor for those restarted
 * during this one, nor at all when `checkMemory` is off (the warm-up round).
 */
export async function runRound(
  world: ChaosWorld,
  plan: RoundPlan,
  checkMemory: boolean,
  coldInstances: ReadonlySet<number> = new Set(),
): Promise<RoundOutcome> {
  const started = Date.now();
  const violations: Violation[] = [];
  const violate = (invariant: string, detail: string) => {
    violations.push({ invariant, detail });
    world.log(`    VIOLATION [${invariant}] ${detail}`);
  };
  const errorsBefore = world.serverErrors.length;
  const memoryBefore = await Promise.all(world.servers.map(settledMemory));

  // Fresh documents, shared with every participant's user.
  const owner = accountOf(world, 0);
  const documentIds: string[] = [];
  for (let document = 0; document < plan.documents; document++) {
    documentIds.push(
      await owner.createDocument(
        `Round ${plan.round} document ${document}.`,
        `Chaos ${plan.seed}/${plan.round}`,
      ),
    );
  }
  const seats = [...plan.writers, ...plan.agents];
  for (const [seat, { document }] of seats.entries()) {
    if (seat === 0) continue;
    await owner.trpc("documents.share", {
      id: documentIds[document],
      email: accountOf(world, seat).email,
      role: "editor",
    });
  }
  const participants = seats.map(
    (seat, index) =>
      new Participant({
        index,
        label: `${index < plan.writers.length ? "writer" : "agent"} ${index}`,
        documentId: documentIds[seat.document] as string,
        instance: seat.instance,
        slow: seat.slow,
        client: clientOn(world, accountOf(world, index), seat.instance, seat.slow),
      }),
  );
  const fresh: SyncClient[] = [];
  try {
    await Promise.all(
      participants.map((participant) =>
        participant.sync.synced(20_000).catch(async (error: unknown) => {
          const { closes, refusals } = participant.sync;
          // What the database was doing then: a session holding a lock the load waits for shows here.
          const sessions = await world.sql<{ state: string; wait: string; xact: string; query: string }[]>`
            select state, coalesce(wait_event_type || ':' || wait_event, '') as wait,
              coalesce(extract(epoch from now() - xact_start)::int::text, '') as xact, left(query, 100) as query
            from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
          const busy = sessions.filter((session) => session.state !== "idle");
          throw new Error(
            `${participant.label} (instance ${participant.instance}${participant.slow ? ", slow proxy" : ""}) did not sync within 20 s: ${String(error)}; closes: ${closes.join(" | ") || "none"}; refusals: ${refusals.join(" | ") || "none"}; ${sessions.length} database sessions, not idle: ${busy.map((session) => `${session.state} ${session.wait} ${session.xact}s ${session.query}`).join(" | ") || "none"}`,
          );
        }),
      ),
    );

    // The work, and the faults while it goes on.
    const began = Date.now();
    const stopAt = began + plan.activeMs;
    const nemesis = new Nemesis(
      {
        servers: world.servers,
        postgres: world.postgres,
        redis: world.redis,
        slow: world.slow,
        participants,
      },
      world.log,
    );
    const faults = nemesis.run(plan.faults);
    const random = new Random(plan.roundSeed);
    const writing = plan.writers.map((writer, index) =>
      write(
        participants[index] as Participant,
        `r${plan.round}w${index}n`,
        writer.paceMs,
        stopAt,
        new Random(random.int(0, 2 ** 31)),
      ),
    );
    const runs: ChaosRun[] = [];
    const asking = plan.agents.map((agent, index) => {
      const seat = plan.writers.length + index;
      const participant = participants[seat] as Participant;
      const home = participant.client;
      const other = clientOn(world, accountOf(world, seat), agent.instance === 0 ? 1 : 0);
      return askAgent(participant, [home, other], agent, `r${plan.round}a${index}n`, stopAt, runs);
    });
    await Promise.all(writing);
    try {
      await faults;
    } finally {
      for (const problem of nemesis.problems) violate("faults heal", problem);
    }
    await Promise.all(asking);
    await nemesis.healAll();
    world.log(`    work and faults over after ${((Date.now() - began) / 1000).toFixed(1)} s; checking`);

    // Every copy gets its changes acknowledged by the server.
    await Promise.all(
      participants.map(async (participant) => {
        try {
          await participant.sync.flushed(SETTLE_MS);
        } catch {
          violate(
            "changes acknowledged",
            `${participant.label}'s copy (instance ${participant.instance}) still had unacknowledged changes ${SETTLE_MS / 1000} s after every fault healed`,
          );
        }
      }),
    );

    for (const [document, documentId] of documentIds.entries()) {
      await checkDocument(
        {
          name: `document ${document}`,
          documentId,
          copies: participants.filter((participant) => participant.documentId === documentId),
          runs: runs.filter((run) => participants[run.participant]?.documentId === documentId),
          began,
        },
        {
          servers: world.servers,
          sql: world.sql,
          ownerCookie: owner.cookie,
          markdownOn: (instance) => clientOn(world, owner, instance).documentMarkdown(documentId),
          fresh,
        },
        violate,
      );
    }

    // Every run ended in storage too (a run started whose answer was lost has no driver: its tool
    // call's deadline ends it).
    const stillRunning = await settle(
      () =>
        world.sql<{ id: string; prompt: string }[]>`
          select id, prompt from agent_runs where document_id in ${world.sql(documentIds)} and status = 'running'`,
      (rows) => rows.length === 0,
      RUN_END_MS,
    );
    // A run its driver already reported (it did not end) is not reported twice.
    const reported = new Set(runs.filter((run) => run.problems.length > 0).map((run) => run.runId));
    for (const row of stillRunning.filter((candidate) => !reported.has(candidate.id)))
      violate(
        "runs end",
        `run ${row.id} (${row.prompt}) is still running ${RUN_END_MS / 1000} s after the work ended`,
      );

    // No 5xx without an error in the server's log.
    const answers = world.serverErrors.slice(errorsBefore);
    await settle(
      () => answers.every((answer) => answer.logTo !== null),
      (done) => done,
      5_000,
    );
    for (const answer of answers) {
      const server = world.servers[answer.instance] as AppServer;
      if (!logsAnError(server.log.slice(answer.logFrom, answer.logTo ?? undefined)))
        violate(
          "no silent 5xx",
          `${answer.method} ${answer.path} on instance ${answer.instance} answered ${answer.status} at ${answer.at} with no error logged: ${answer.body}`,
        );
    }

    // Memory back to where it was (within 20%).
    const memory: RoundOutcome["memory"] = [];
    for (const [instance, server] of world.servers.entries()) {
      const before = memoryBefore[instance] ?? 0;
      // An instance started again during this round is another process now: nothing to compare.
      const compared = checkMemory && !coldInstances.has(instance) && !nemesis.restarted.has(instance);
      // Each reading is taken after a full collection; the allocator gives pages back to the
      // system over a few seconds, so readings are repeated for a while before one counts.
      const after = await settle(
        () => settledMemory(server),
        (bytes) => !compared || bytes <= before * (1 + MEMORY_GROWTH_LIMIT),
        MEMORY_SETTLE_MS,
        2_000,
      );
      memory.push({ before, after });
      if (compared && after > before * (1 + MEMORY_GROWTH_LIMIT))
        violate(
          "memory returns",
          `instance ${instance}: ${megabytes(before)} before the round, ${megabytes(after)} after (over +${MEMORY_GROWTH_LIMIT * 100}%)`,
        );
    }
    const edits = participants.reduce((sum, participant) => sum + participant.typed.length, 0);
    return {
      plan,
      restarted: [...nemesis.restarted],
      serverErrors: answers.length,
      memory,
      violations,
      seconds: (Date.now() - started) / 1000,
      edits,
      runs,
    };
  } finally {
    for (const copy of fresh) copy.close();
    for (const participant of participants) participant.close();
  }
}
