// Issue 15's pipeline figures: what one more pipeline step costs over a single-agent run, and a
// 3-way parallel block's wall time against its slowest branch. Agents are read-only and answer
// "write N words" with N words (the offline model), so a step's own work is known: none at full
// speed, N × the server's word delay on the slow server.
import { z } from "zod";
import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import type { BenchSizes } from "./sizes.ts";
import { percentile, round } from "./stats.ts";

const agent = (id: string) => `  - id: ${id}\n    instructions: Answer the writer.\n    tools: read\n`;

/** A recipe of `steps` agent steps one after another. */
function sequenceRecipe(steps: number): string {
  const ids = Array.from({ length: steps }, (_, i) => `a${i + 1}`);
  return `version: 1\nname: Bench sequence of ${steps}\nagents:\n${ids.map(agent).join("")}steps:\n${ids.map((id) => `  - agent: ${id}\n`).join("")}`;
}

/** A recipe of one 3-way parallel block. */
const PARALLEL_RECIPE = `version: 1\nname: Bench parallel of 3\nagents:\n${["p1", "p2", "p3"].map(agent).join("")}steps:\n  - id: block\n    parallel:\n      - agent: p1\n      - agent: p2\n      - agent: p3\n`;

const saveAnswerSchema = z.object({ ok: z.boolean(), recipe: z.object({ id: z.string() }).optional() });

async function saveRecipe(client: CoauthorClient, documentId: string, definition: string): Promise<string> {
  const saved = saveAnswerSchema.parse(
    await client.trpc<unknown>("recipes.save", { documentId, definition }),
  );
  if (!saved.ok || !saved.recipe) throw new Error(`recipe not saved: ${JSON.stringify(saved)}`);
  return saved.recipe.id;
}

/** One run: total time from the POST to the end, and each pipeline step's running → done time. */
async function timedRun(client: CoauthorClient, documentId: string, prompt: string, recipeId?: string) {
  const started = performance.now();
  const began = new Map<string, number>();
  const steps = new Map<string, number>();
  const run = await client.runAgent(documentId, prompt, {
    ...(recipeId ? { request: { recipeId } } : {}),
    onEvent: (event) => {
      if (event.type !== "pipeline-step") return undefined;
      if (event.status === "running") began.set(event.path, performance.now());
      if (event.status === "done")
        steps.set(event.path, performance.now() - (began.get(event.path) ?? started));
      return undefined;
    },
  });
  const last = run.events.at(-1);
  if (last?.type !== "finish" || last.status !== "done")
    throw new Error(`pipeline run did not finish: ${JSON.stringify(last)}`);
  return { totalMs: performance.now() - started, steps };
}

/** Median over `n` runs of `measure`. */
async function medianOf(n: number, measure: () => Promise<number>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) samples.push(await measure());
  return round(percentile(samples, 50));
}

/**
 * Per-step overhead (full-speed server): a 5-step sequence against a 1-step one, each agent
 * answering "write 3 words"; beside it a default single-agent run of the same prompt.
 */
export async function pipelineStepOverhead(baseURL: string, runs = 5) {
  const client = await new CoauthorClient(baseURL).signIn();
  const documentId = await client.createDocument("Benchmark.");
  const one = await saveRecipe(client, documentId, sequenceRecipe(1));
  const five = await saveRecipe(client, documentId, sequenceRecipe(5));
  await timedRun(client, documentId, "write 3 words", five); // warm-up
  const singleAgentMs = await medianOf(
    runs,
    async () => (await timedRun(client, documentId, "write 3 words")).totalMs,
  );
  const oneStepMs = await medianOf(
    runs,
    async () => (await timedRun(client, documentId, "write 3 words", one)).totalMs,
  );
  const fiveStepsMs = await medianOf(
    runs,
    async () => (await timedRun(client, documentId, "write 3 words", five)).totalMs,
  );
  return {
    runs,
    singleAgentMs,
    oneStepMs,
    fiveStepsMs,
    perExtraStepMs: round((fiveStepsMs - oneStepMs) / 4),
  };
}

/**
 * A 3-way parallel block on a server whose model waits `wordDelayMs` per word: its wall time
 * (the block's running → done) against its slowest branch's own running → done.
 */
export async function parallelBlock(baseURL: string, words: number, runs = 3) {
  const client = await new CoauthorClient(baseURL).signIn();
  const documentId = await client.createDocument("Benchmark.");
  const recipeId = await saveRecipe(client, documentId, PARALLEL_RECIPE);
  const ratios: number[] = [];
  const walls: number[] = [];
  const slowest: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const { steps } = await timedRun(client, documentId, `write ${words} words`, recipeId);
    const branches = [...steps].filter(([path]) => path.split(".").length > 1).map(([, ms]) => ms);
    const block = steps.get("0");
    if (block === undefined || branches.length !== 3)
      throw new Error(`unexpected step events: ${JSON.stringify([...steps])}`);
    if (i === 0) continue; // warm-up
    walls.push(block);
    slowest.push(Math.max(...branches));
    ratios.push(block / Math.max(...branches));
  }
  return {
    runs,
    wallMs: round(percentile(walls, 50)),
    slowestBranchMs: round(percentile(slowest, 50)),
    ratio: round(percentile(ratios, 50) * 100) / 100,
  };
}

// The slow server's model: 10 ms per word; at the full bench's 50 words per branch, about half a
// second of a branch's own.
const SLOW_WORD_DELAY_MS = 10;

/**
 * Both pipeline figures, each on a fresh server of its own (`serverEnv`): the overhead at full
 * speed, the parallel block on a slow model. Fresh, so the load sections before leave no trace.
 */
export async function benchPipelines(serverEnv: Record<string, string>, sizes: BenchSizes["pipelines"]) {
  const fast = new AppServer(serverEnv);
  let overhead: Awaited<ReturnType<typeof pipelineStepOverhead>>;
  try {
    await fast.start();
    overhead = await pipelineStepOverhead(fast.url, sizes.overheadRuns);
  } finally {
    await fast.dispose();
  }
  const slow = new AppServer({ ...serverEnv, OFFLINE_MODEL_WORD_DELAY_MS: String(SLOW_WORD_DELAY_MS) });
  try {
    await slow.start();
    const parallel = await parallelBlock(slow.url, sizes.branchWords, sizes.parallelRuns);
    return {
      overhead,
      parallel: { ...parallel, wordDelayMs: SLOW_WORD_DELAY_MS, branchWords: sizes.branchWords },
    };
  } finally {
    await slow.dispose();
  }
}

/** Prints the pipeline table. */
export function printPipelines(figures: Awaited<ReturnType<typeof benchPipelines>>): void {
  const { overhead, parallel } = figures;
  console.log(
    `\nPipelines (offline model; medians of ${overhead.runs} runs, the 3-way parallel block's of ${parallel.runs})\n`,
  );
  console.table([
    {
      figure: `single-agent run (default pipeline), "write 3 words" (ms)`,
      value: overhead.singleAgentMs,
      target: "",
    },
    {
      figure: "recipe of 1 agent step / of 5 agent steps (ms)",
      value: `${overhead.oneStepMs} / ${overhead.fiveStepsMs}`,
      target: "",
    },
    {
      figure: "overhead per extra pipeline step, (5 − 1 steps) ÷ 4 (ms)",
      value: overhead.perExtraStepMs,
      target: "",
    },
    {
      figure: `3-way parallel block: wall / slowest branch (ms; ${parallel.branchWords} words at ${parallel.wordDelayMs} ms each)`,
      value: `${parallel.wallMs} / ${parallel.slowestBranchMs}`,
      target: "",
    },
    { figure: "parallel block ÷ slowest branch (×)", value: parallel.ratio, target: "≤ 1.2" },
  ]);
}
