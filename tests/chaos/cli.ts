// `pnpm chaos [--seed N] [--rounds R] [--from K] [--without kind,kind]`: runs rounds K … K+R-1 of
// seed N's schedule (a random seed, printed, when none is given), leaving out the faults of the
// kinds named by --without (to look past a known violation), and prints every violation with the
// seed and the schedule that replays it. Exits 1 when there is any. Needs the build and the
// machine's PostgreSQL and Redis, like the scale-out suite.
import { parseArgs } from "node:util";
import { describeViolations, runChaos } from "./chaos-run.ts";
import { FAULT_KINDS } from "./schedule.ts";

const { values } = parseArgs({
  options: {
    seed: { type: "string" },
    rounds: { type: "string", default: "10" },
    from: { type: "string", default: "0" },
    without: { type: "string", default: "" },
  },
});
const without = values.without.split(",").filter(Boolean);
for (const kind of without)
  if (!FAULT_KINDS.some((known) => known === kind))
    throw new Error(`--without: no fault kind "${kind}" (${FAULT_KINDS.join(", ")})`);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const rounds = Number(values.rounds);
const from = Number(values.from);
for (const [name, value] of [
  ["--seed", seed],
  ["--rounds", rounds],
  ["--from", from],
] as const) {
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number ≥ 0`);
}

console.log(
  `chaos: seed ${seed}, rounds ${from}…${from + rounds - 1}${without.length > 0 ? `, without ${without.join(", ")}` : ""}`,
);
const report = await runChaos({
  seed,
  rounds,
  from,
  adjust: (plan) => ({ ...plan, faults: plan.faults.filter((fault) => !without.includes(fault.kind)) }),
});
const faults = report.outcomes.reduce((sum, outcome) => sum + outcome.plan.faults.length, 0);
console.log(
  `\nchaos: seed ${seed}, ${report.outcomes.length} rounds, ${faults} faults, ${report.seconds.toFixed(0)} s, ${report.violations.length} violations`,
);
if (report.violations.length > 0) {
  console.log(`\n${describeViolations(report)}`);
  process.exitCode = 1;
}
