import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exportMarkdown } from "../markdown.ts";
import { scenarioArbitrary } from "./operations.ts";
import { type ReplaySummary, replay } from "./replay.ts";

// A randomized model of collaborative editing: 2–4 headless copies of one document synced through
// an in-memory relay (held, late, lost and reordered messages; disconnects), people typing,
// deleting, splitting, joining, bolding, pasting and undoing in their copies, and the agent
// calling its real tools through the real stale guard. After every copy has received everything,
// the invariants of invariants.ts must hold. A failure prints the seed and the shrunk op list;
// replay it with `pnpm test:model --seed <seed> --path <path>`.
//
// `npm test` runs a fixed set of seeds. MODEL_SEED (a number, or "random") and MODEL_RUNS explore
// further; MODEL_PATH replays one case of a seed; MODEL_SCENARIO (a counterexample's JSON) replays
// it directly, printing every copy's Markdown after each op; MODEL_HAZARDS=run also runs the interactions
// hazards.ts excludes (to watch a known hazard happen). Known issues left out of the runs are
// named where they are left out (hazards.ts, agent-ops.ts, human-ops.ts).
//
// A marker word split by a concurrent insertion inside it (both edits kept) counts as present.
//
// Reported with issue #35 and not left out, so a long exploration meets them about once in 2,000
// runs (the fixed set does not): "repeated block ids" after an undo restores a block (with its
// id) that the agent concurrently replaced (keeping the id on its new block); and a marker word
// split when it was typed just before text that starts like it while that text's author undid it
// (the binding diffs the old and new text instead of keeping the caret's place).

const explore = process.env.MODEL_SEED;
const runHazards = process.env.MODEL_HAZARDS === "run";

/** Runs of the fixed set: in-order and reordering delivery, each with its own seed. */
const FIXED = [
  { name: "in-order delivery", reorder: false, seed: 20_260_501, runs: 250 },
  { name: "reordered delivery", reorder: true, seed: 20_260_502, runs: 250 },
] as const;

const MAX_OPS = 40;

function merge(total: Map<string, number>, part: Map<string, number>): void {
  for (const [key, value] of part) total.set(key, (total.get(key) ?? 0) + value);
}

async function check(options: { reorder?: boolean; seed: number | undefined; runs: number; path?: string }) {
  const ran = new Map<string, number>();
  const refused = new Map<string, number>();
  const excluded = new Map<string, number>();
  let ops = 0;
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(scenarioArbitrary({ reorder: options.reorder, maxOps: MAX_OPS }), async (scenario) => {
      const summary: ReplaySummary = await replay(scenario, { runHazards });
      ops += summary.ops;
      merge(ran, summary.ran);
      merge(refused, summary.refused);
      merge(excluded, summary.excluded);
    }),
    {
      seed: options.seed,
      numRuns: options.runs,
      path: options.path,
      endOnFailure: options.path !== undefined,
    },
  );
  return { ran, refused, excluded, ops, seconds: (Date.now() - started) / 1000 };
}

/** One line of statistics, so a run shows what it exercised. */
function describeRun(name: string, stats: Awaited<ReturnType<typeof check>>): string {
  const list = (map: Map<string, number>) => [...map].map(([key, value]) => `${key} ${value}`).join(", ");
  return `${name}: ${stats.ops} ops in ${stats.seconds.toFixed(1)} s; ran ${list(stats.ran)}; refused ${list(stats.refused)}; excluded ${list(stats.excluded) || "none"}`;
}

describe("editing model: copies, relay, people and the agent converge without losing words", () => {
  const scenario = process.env.MODEL_SCENARIO;
  if (scenario !== undefined) {
    it("replays MODEL_SCENARIO", { timeout: 0 }, async () => {
      await replay(JSON.parse(scenario), {
        runHazards,
        trace: (step, op, world) => {
          const copies = world.copies.map((copy) => `copy ${copy.index}:\n${exportMarkdown(copy.editor)}`);
          console.info(
            `after ${op === null ? "quiescence" : `step ${step} ${JSON.stringify(op)}`}\n${copies.join("\n")}`,
          );
        },
      });
    });
    return;
  }
  if (explore !== undefined) {
    const seed = explore === "random" ? Math.floor(Math.random() * 2 ** 31) : Number(explore);
    const runs = Number(process.env.MODEL_RUNS ?? 200);
    it(`explores seed ${seed} (${runs} runs)`, { timeout: 0 }, async () => {
      const stats = await check({ seed, runs, path: process.env.MODEL_PATH });
      console.info(describeRun(`seed ${seed}`, stats));
      expect(stats.ops).toBeGreaterThan(0);
    });
    return;
  }
  for (const config of FIXED) {
    it(config.name, { timeout: 120_000 }, async () => {
      const stats = await check({ reorder: config.reorder, seed: config.seed, runs: config.runs });
      console.info(describeRun(config.name, stats));
      // The model is only worth something if the agent's writes and people's edits really ran.
      expect(stats.ran.get("type") ?? 0).toBeGreaterThan(50);
      expect(stats.ran.get("moveBlock") ?? 0).toBeGreaterThan(5);
    });
  }

  // Found by a 10,000-run exploration (seed 20261128): a person pastes inside a word the agent, on
  // a mirror that has not received the paste yet, replaces. Both edits stay, interleaved — the
  // agent's word reads split around the paste, which is a merge, not a loss (facts.ts).
  it("a paste inside a word the agent replaces at the same time keeps both edits", async () => {
    const summary = await replay(
      {
        document: 0,
        copies: 3,
        reorder: false,
        ops: [
          { kind: "enter", copy: 0, unit: 0, at: 0 },
          { kind: "insertBlocks", template: 944, where: "start", anchor: 0 },
          { kind: "deliver", copy: 0, direction: "up", pick: 0, count: 2 },
          { kind: "deliver", copy: 2, direction: "down", pick: 0, count: 2 },
          { kind: "read" },
          { kind: "paste", copy: 2, unit: 0, at: 156, template: 0 },
          { kind: "replaceText", block: 225, word: 563, everywhere: false, all: false },
          { kind: "newRun" },
        ],
      },
      { runHazards: false },
    );
    expect(summary.ran.get("paste")).toBe(1);
    expect(summary.ran.get("replaceText")).toBe(1);
  });
});
