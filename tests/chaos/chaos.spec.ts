import { expect, test } from "../lib/test.ts";
import { describeViolations, runChaos } from "./chaos-run.ts";
import type { FaultKind, RoundPlan } from "./schedule.ts";

// The fault runner's short fixed set: rounds of one seed on two instances (PostgreSQL, the
// Postgres world, Redis), writers and agent runs spread over both while the nemesis injects the
// round's faults; every invariant is checked after each round (docs/scaling-out.md, "Chaos").
// CHAOS_SEED / CHAOS_ROUNDS run other rounds here; `pnpm chaos` runs long without Playwright.
// Needs the machine's PostgreSQL and Redis (a missing one fails this file, naming it).

// Seed 17's first three rounds inject one fault of every kind but the two below, five in all
// (found by planning seeds 1…20,000: the fewest faults that cover them).
const seed = Number(process.env.CHAOS_SEED ?? 17);
const rounds = Number(process.env.CHAOS_ROUNDS ?? 3);

// Faults whose violations are known and not fixed yet (issue #35; docs/scaling-out.md "Chaos"
// says more). Left out of this set only: `pnpm chaos` keeps injecting them. In seed 2026's long
// run (166 rounds) each left a run that did not end in about one round in twelve where it struck
// beside another fault; a SIGKILL also left an agent's edit twice.
const KNOWN_BROKEN: readonly FaultKind[] = ["sigkill", "postgres-down"];
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
