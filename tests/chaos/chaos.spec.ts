import { expect, test } from "../lib/test.ts";
import { describeViolations, runChaos } from "./chaos-run.ts";
import type { FaultKind, RoundPlan } from "./schedule.ts";

// The fault runner's short fixed set: rounds of one seed on two instances (PostgreSQL, the
// Postgres world, Redis), writers and agent runs spread over both while the nemesis injects the
// round's faults; every invariant is checked after each round (docs/scaling-out.md, "Chaos").
// CHAOS_SEED / CHAOS_ROUNDS run other rounds here; `pnpm chaos` runs long without Playwright.
// Needs the machine's PostgreSQL and Redis (a missing one fails this file, naming it).
const seed = Number(process.env.CHAOS_SEED ?? 3952);
const rounds = Number(process.env.CHAOS_ROUNDS ?? 3);

// Faults whose violations are known and not fixed yet (issue #35; docs/scaling-out.md "Chaos"
// says more). Left out of this set only: `pnpm chaos` keeps injecting them.
// - postgres-down: an append whose postgres.js query never settles across the connection reset
//   is never stored nor retried, and the writer's later updates are unreadable in storage behind
//   it; a Graphile worker that cannot release its job exits and leaves the job locked, so its run
//   stays running.
// - sigkill: an update the killed instance had relayed through Redis but not yet appended is
//   stored by no instance; a job it held without a turns-step lease stays locked, so its run
//   stays running.
const KNOWN_BROKEN: readonly FaultKind[] = ["postgres-down", "sigkill"];
const withoutKnownBroken = (plan: RoundPlan): RoundPlan => ({
  ...plan,
  faults: plan.faults.filter((fault) => !KNOWN_BROKEN.includes(fault.kind)),
});

test(`${rounds} chaos rounds of seed ${seed}: every invariant holds after each`, async () => {
  // Start and warm-up, then about half a minute a round; a round with a broken run waits for it.
  test.setTimeout(120_000 + rounds * 120_000);
  const report = await runChaos({ seed, rounds, adjust: withoutKnownBroken });
  expect(report.violations, describeViolations(report)).toEqual([]);
});
