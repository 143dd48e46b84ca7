import { expect, test } from "../lib/test.ts";
import { describeViolations, runChaos } from "./chaos-run.ts";
import type { FaultKind, RoundPlan } from "./schedule.ts";

// The fault runner's short fixed set: rounds of one seed on two instances (PostgreSQL, the
// Postgres world, Redis), writers and agent runs spread over both while the nemesis injects the
// round's faults; every invariant is checked after each round (docs/scaling-out.md, "Chaos").
// CHAOS_SEED / CHAOS_ROUNDS run other rounds here; `pnpm chaos` runs long without Playwright.
// Needs the machine's PostgreSQL and Redis (a missing one fails this file, naming it).
// Seed 172's first three rounds inject one fault of every kind but SIGKILL (found by planning
// seeds 1…20,000: the fewest faults that cover them).
const seed = Number(process.env.CHAOS_SEED ?? 172);
const rounds = Number(process.env.CHAOS_ROUNDS ?? 3);

// Faults whose violations are known and not fixed yet (issue #35; docs/scaling-out.md "Chaos"
// says more). Left out of this set only: `pnpm chaos` keeps injecting them.
// - sigkill: a round now and then ends with an agent's marker twice in the document though its
//   tool ran once (seed 172 round 1, one replay in three), or a writer's copy that the instance
//   restart left with unacknowledged changes past the settle time.
const KNOWN_BROKEN: readonly FaultKind[] = ["sigkill"];
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
