#!/usr/bin/env node
// `pnpm test:model [--seed <n>|random] [--runs <n>] [--path <p>] [--scenario <json>] [--run-hazards]`:
// runs the editing model (src/model/editing-model.test.ts) with a seed of your choice instead of the
// fixed set `npm test` runs: a new random seed by default, or the seed (and path) a failure printed,
// or its counterexample (the JSON after "Counterexample: [", without the brackets) to replay it.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const flags = {
  "--seed": "MODEL_SEED",
  "--runs": "MODEL_RUNS",
  "--path": "MODEL_PATH",
  "--scenario": "MODEL_SCENARIO",
};
const env = { ...process.env };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === "--run-hazards") env.MODEL_HAZARDS = "run";
  else if (arg in flags && args[i + 1] !== undefined) env[flags[arg]] = args[++i];
  else {
    console.error(
      `unknown argument ${arg}; use --seed <n>|random, --runs <n>, --path <p>, --scenario <json>, --run-hazards`,
    );
    process.exit(2);
  }
}
if (env.MODEL_SCENARIO === undefined) env.MODEL_SEED ??= "random";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const result = spawnSync("vitest", ["run", "src/model/editing-model.test.ts"], {
  cwd: packageDir,
  env,
  stdio: "inherit",
});
if (result.error) throw result.error;
process.exit(result.status ?? 1);
