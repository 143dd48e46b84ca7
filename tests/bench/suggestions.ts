// Suggestions benchmark, headless (no server): on documents bound to Yjs as the browser binds them,
// what a run's edit costs as suggestions beside the same edit made directly, what Accept all of
// every pending suggestion costs beside the direct edit of the same size, and what deciding leaves
// in the Yjs document. Figures, not assertions.
import {
  $decideSuggestions,
  bindDocumentEditor,
  listSuggestions,
  runEditorTool,
  runToolAsSuggestion,
  yjsUpdateFromMarkdown,
} from "@coauthor/tools";
import { $getRoot } from "lexical";
import * as Y from "yjs";
import { round } from "./stats.ts";

const AUTHOR = { authorId: "bench", authorName: "Coauthor for Bench", runId: "bench-run" };

export interface SuggestionBenchRow {
  blocks: number;
  /** replaceText over every block: as suggestions, and directly (ms). */
  suggestEditMs: number;
  directEditMs: number;
  /** Accept all of the `blocks` pending suggestions that edit made (ms), and its ratio to the direct edit. */
  acceptAllMs: number;
  acceptVsDirect: number;
  /** The Yjs document's size after the direct edit, after Accept all, after Reject all (KB). */
  directKB: number;
  acceptedKB: number;
  rejectedKB: number;
}

/** A run of one-block calls arriving in a co-editor's copy, as suggestions and as direct edits. */
export interface SuggestionArrivalRow {
  calls: number;
  /** Per call, from the call's start to the co-editor's editor holding its result: median / p95 (ms). */
  suggestMedianMs: number;
  suggestP95Ms: number;
  directMedianMs: number;
  directP95Ms: number;
}

function document(blocks: number): Uint8Array {
  return yjsUpdateFromMarkdown(
    Array.from({ length: blocks }, (_, i) => `Paragraph ${i} says the old plan with **bold** words.`).join(
      "\n\n",
    ),
  );
}

async function measure(blocks: number): Promise<SuggestionBenchRow> {
  const seed = document(blocks);
  const call = { search: "old plan", replace: "new plan" };

  const direct = bindDocumentEditor(seed);
  const started = performance.now();
  await runEditorTool(direct.editor, "replaceText", call);
  const directEditMs = performance.now() - started;

  const decide = async (decision: "accept" | "reject") => {
    const copy = bindDocumentEditor(seed);
    const before = performance.now();
    await runToolAsSuggestion(copy.editor, "replaceText", call, AUTHOR);
    const suggestMs = performance.now() - before;
    const ids = new Set(listSuggestions(copy.editor).map((suggestion) => suggestion.id));
    const decided = performance.now();
    copy.editor.update(() => void $decideSuggestions(ids, decision), { discrete: true });
    return {
      suggestMs,
      decideMs: performance.now() - decided,
      bytes: Y.encodeStateAsUpdate(copy.doc).byteLength,
    };
  };
  const accepted = await decide("accept");
  const rejected = await decide("reject");
  return {
    blocks,
    suggestEditMs: round(accepted.suggestMs),
    directEditMs: round(directEditMs),
    acceptAllMs: round(accepted.decideMs),
    acceptVsDirect: round(accepted.decideMs / directEditMs),
    directKB: round(Y.encodeStateAsUpdate(direct.doc).byteLength / 1024),
    acceptedKB: round(accepted.bytes / 1024),
    rejectedKB: round(rejected.bytes / 1024),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/**
 * `calls` replaceText calls, one block each, in one copy of a `calls`-block document whose Yjs
 * updates reach a second bound copy at once (the relay a sync server is, without the network):
 * the time from a call's start until the second copy's editor has committed it.
 */
async function arrivals(calls: number, asSuggestion: boolean): Promise<number[]> {
  const seed = document(calls);
  const agent = bindDocumentEditor(seed);
  const coEditor = bindDocumentEditor(seed);
  agent.doc.on("update", (update: Uint8Array) => Y.applyUpdate(coEditor.doc, update, "relay"));
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const call = { search: `Paragraph ${i} says`, replace: `Paragraph ${i} now says` };
    const started = performance.now();
    if (asSuggestion) await runToolAsSuggestion(agent.editor, "replaceText", call, AUTHOR);
    else await runEditorTool(agent.editor, "replaceText", call);
    // Reading commits the co-editor's pending update, as its next microtask would.
    const arrived = coEditor.editor.read(() =>
      $getRoot().getTextContent().includes(`Paragraph ${i} now says`),
    );
    times.push(performance.now() - started);
    if (!arrived) throw new Error(`call ${i} did not reach the co-editor's copy`);
  }
  agent.dispose();
  coEditor.dispose();
  return times.sort((a, b) => a - b);
}

/** Per-call arrival of a run's `calls` one-block edits in a co-editor's copy, suggested and direct. */
async function measureArrivals(calls: number): Promise<SuggestionArrivalRow> {
  const suggested = await arrivals(calls, true);
  const direct = await arrivals(calls, false);
  return {
    calls,
    suggestMedianMs: round(percentile(suggested, 0.5)),
    suggestP95Ms: round(percentile(suggested, 0.95)),
    directMedianMs: round(percentile(direct, 0.5)),
    directP95Ms: round(percentile(direct, 0.95)),
  };
}

function printArrivals(row: SuggestionArrivalRow): void {
  console.log(`\nSuggestions arriving: ${row.calls} one-block calls, each until a co-editor's copy holds it`);
  console.table([
    { mode: "as suggestions", "median (ms)": row.suggestMedianMs, "p95 (ms)": row.suggestP95Ms },
    { mode: "directly (peer)", "median (ms)": row.directMedianMs, "p95 (ms)": row.directP95Ms },
  ]);
}

/**
 * The suggestion figures at 200 and 1,000 pending suggestions (one per block), and a run of as
 * many one-block calls as the first size arriving in a co-editor's copy.
 */
export async function benchSuggestions(sizes = [200, 1_000]) {
  const decisions: SuggestionBenchRow[] = [];
  for (const blocks of sizes) decisions.push(await measure(blocks));
  return { decisions, arrivals: await measureArrivals(sizes[0] ?? 200) };
}

export function printSuggestions({
  decisions,
  arrivals,
}: Awaited<ReturnType<typeof benchSuggestions>>): void {
  printArrivals(arrivals);
  console.log("\nSuggestions (headless, Yjs-bound editors): a replaceText over every block");
  console.table(
    decisions.map((row) => ({
      "pending suggestions": row.blocks,
      "edit as suggestions / directly (ms)": `${row.suggestEditMs} / ${row.directEditMs}`,
      "Accept all (ms)": row.acceptAllMs,
      "÷ direct edit": `${row.acceptVsDirect}×`,
      target: "≤ 100 ms, ≤ 2× direct",
      "Yjs KB: direct / accepted / rejected": `${row.directKB} / ${row.acceptedKB} / ${row.rejectedKB}`,
    })),
  );
}
