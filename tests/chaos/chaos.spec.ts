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

// Faults whose violations are known and not fixed yet (issue #35, chaos findings; the report and
// docs/scaling-out.md "Chaos" describe them). Left out of this set only: `pnpm chaos` keeps them.
// - postgres-down: an update the sync server acknowledged while PostgreSQL was unreachable is
//   never stored (its append failed and is only logged), and every later update of the same
//   writer is unreadable in storage behind it; a Graphile worker that cannot release its job
//   exits for good and leaves the job locked, so its run never ends.
// - sigkill: an update acknowledged just before the kill and relayed to the other instance is
//   stored by neither (the relay's copy counts as stored elsewhere); a job the killed instance
//   held without a turns-step lease stays locked, so its run never ends.
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
