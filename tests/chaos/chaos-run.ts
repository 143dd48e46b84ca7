// A chaos run: two instances of the build on PostgreSQL (the Postgres world too) and Redis, each
// service behind a fault proxy, a slow proxy in front of each instance, and the rounds of a
// seeded schedule, one after the other on the same instances. Used by the Playwright project
// `chaos` (a short fixed set) and by `pnpm chaos --seed N --rounds R` (replays, long runs).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { FaultProxy } from "../lib/fault-proxy.ts";
import { type Instances, startInstances } from "../lib/instances.ts";
import { REDIS_URL, requireSharedServices } from "../lib/shared-services.ts";
import { megabytes } from "./memory.ts";
import { Nemesis } from "./nemesis.ts";
import { ObservedClient, type ServerErrorAnswer } from "./observed-client.ts";
import { type ChaosWorld, type RoundOutcome, runRound } from "./round.ts";
import { describePlan, planRound, type RoundPlan } from "./schedule.ts";

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** The instances' settings: quick takeovers and deadlines, and limits no chaos round reaches. */
export const CHAOS_ENV: Record<string, string> = {
  // A dead instance's step is taken over within seconds (the default lease is 10 s).
  AGENT_STEP_LEASE_MS: "2000",
  // A tool call nobody will answer (a run whose start answer was lost) ends the run in 30 s.
  AGENT_TOOL_DEADLINE_MS: "30000",
  MAX_CONCURRENT_RUNS_PER_USER: "5",
  MAX_CONCURRENT_RUNS_PER_DOCUMENT: "10",
  RATE_LIMIT_RUNS_PER_MINUTE: "1000",
  RATE_LIMIT_CALLBACKS_PER_MINUTE: "10000",
  AUTH_RATE_LIMIT_PER_MINUTE: "10000",
  // A stream cut without a reset (a slow link) is noticed by the silence within seconds.
  SSE_HEARTBEAT_MS: "3000",
  // The bench-only GC route: memory is compared after a full collection.
  COAUTHOR_BENCH: "1",
};

/** Where a round with violations leaves its instances' logs (the round's part of each). */
export const LOG_DIR = join(import.meta.dirname, "..", "test-results", "chaos");

/** Enough accounts for the largest round (10 writers and 5 agent participants). */
const ACCOUNTS = 15;

/** What a run found. */
export interface ChaosReport {
  seed: number;
  outcomes: RoundOutcome[];
  /** Every violation, each with its round's seed and schedule. */
  violations: { round: number; invariant: string; detail: string; schedule: string }[];
  seconds: number;
}

/** Options of a chaos run. */
export interface ChaosOptions {
  seed: number;
  rounds: number;
  /** The first round's index (a replay of round K of a seed alone: from K, 1 round). */
  from?: number;
  /** Change the schedule of every round (the short set leaves out a fault it cannot pass yet). */
  adjust?: (plan: RoundPlan) => RoundPlan;
  log?: (line: string) => void;
}

/**
 * Starts the world, runs the rounds (a calm warm-up round first: the memory baseline of round one
 * is then a warm server's), and tears everything down. Violations do not stop the run.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  // In the log files' names, so replaying a round does not overwrite the logs of an earlier failure.
  const startedAt = new Date().toISOString().slice(0, 19).replaceAll(":", "");
  const log = options.log ?? ((line: string) => console.log(line));
  const started = Date.now();
  await requireSharedServices();
  const pgProxy = await FaultProxy.forUrl(ADMIN_URL, 5432);
  const redisProxy = await FaultProxy.forUrl(REDIS_URL, 6379);
  const proxies = [pgProxy, redisProxy];
  let instances: Instances | undefined;
  let sql: postgres.Sql | undefined;
  const report: ChaosReport = { seed: options.seed, outcomes: [], violations: [], seconds: 0 };
  try {
    instances = await startInstances({
      label: "chaos",
      postgresWorld: true,
      env: CHAOS_ENV,
      via: { database: (url) => pgProxy.route(url), redis: (url) => redisProxy.route(url) },
    });
    const servers = instances.servers;
    const slow = await Promise.all(servers.map((server) => FaultProxy.forUrl(server.url, 80)));
    proxies.push(...slow);
    sql = postgres(instances.databaseUrl, { max: 2, onnotice: () => undefined });
    const serverErrors: ServerErrorAnswer[] = [];
    const first = servers[0];
    if (!first) throw new Error("no instance");
    const accounts: ObservedClient[] = [];
    for (let index = 0; index < ACCOUNTS; index++)
      accounts.push(await new ObservedClient(first.url, first, 0, serverErrors).signIn());
    const world: ChaosWorld = {
      servers,
      postgres: pgProxy,
      redis: redisProxy,
      slow,
      sql,
      accounts,
      serverErrors,
      log,
    };

    const calm = planRound(options.seed, -1);
    log(`warm-up round (no faults, not counted)`);
    await runRound(world, { ...calm, faults: [], activeMs: 5_000 }, false);
    const from = options.from ?? 0;
    // Instances started again in the round before: a young process's memory is no baseline.
    let cold = new Set<number>();
    for (let round = from; round < from + options.rounds; round++) {
      const planned = planRound(options.seed, round);
      const plan = options.adjust ? options.adjust(planned) : planned;
      const schedule = describePlan(plan);
      log(schedule);
      const logsFrom = servers.map((server) => server.log.length);
      const outcome = await runRound(world, plan, true, cold).catch(
        async (error: unknown): Promise<RoundOutcome> => {
          // A round that could not finish (a copy that never synced, an instance that never came
          // back) is a violation of its own; the next round starts from healed instances.
          const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
          log(`    VIOLATION [round completes] ${detail}`);
          await new Nemesis({ ...world, participants: [] }, log).healAll();
          return {
            plan,
            // After a round that broke off, no instance's memory is a baseline for the next.
            restarted: world.servers.map((_, instance) => instance),
            serverErrors: 0,
            memory: [],
            violations: [{ invariant: "round completes", detail }],
            seconds: 0,
            edits: 0,
            runs: [],
          };
        },
      );
      if (outcome.violations.length > 0) {
        mkdirSync(LOG_DIR, { recursive: true });
        for (const [instance, server] of servers.entries()) {
          const file = join(
            LOG_DIR,
            `seed-${options.seed}-round-${round}-at-${startedAt}-instance-${instance}.log`,
          );
          writeFileSync(file, server.log.slice(logsFrom[instance]));
          log(`  instance ${instance}'s log of the round: ${file}`);
        }
      }
      report.outcomes.push(outcome);
      cold = new Set(outcome.restarted);
      const started = outcome.runs.filter((run) => run.runId !== null);
      const ended = started.filter((run) => run.end !== null).length;
      log(
        `  round ${round}: ${outcome.seconds.toFixed(0)} s, ${outcome.edits} markers typed, ${started.length} runs started (${ended} ended; ${outcome.runs.length - started.length} refused until the work ended), ${outcome.serverErrors} 5xx answers, memory ${outcome.memory.map(({ before, after }, instance) => `${instance}: ${megabytes(before)} → ${megabytes(after)}`).join(", ")}, ${outcome.violations.length} violations`,
      );
      for (const violation of outcome.violations) report.violations.push({ round, ...violation, schedule });
    }
  } finally {
    await sql?.end();
    await instances?.dispose();
    for (const proxy of proxies) await proxy.close();
    report.seconds = (Date.now() - started) / 1000;
  }
  return report;
}

/** The report's violations, each with the seed and schedule that replays it. */
export function describeViolations(report: ChaosReport): string {
  const byRound = new Map<number, ChaosReport["violations"]>();
  for (const violation of report.violations)
    byRound.set(violation.round, [...(byRound.get(violation.round) ?? []), violation]);
  return [...byRound.entries()]
    .map(([round, violations]) =>
      [
        `seed ${report.seed}, round ${round} (replay: pnpm chaos --seed ${report.seed} --from ${round} --rounds 1)`,
        violations[0]?.schedule ?? "",
        ...violations.map((violation) => `  [${violation.invariant}] ${violation.detail}`),
      ].join("\n"),
    )
    .join("\n\n");
}
