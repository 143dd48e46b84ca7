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

/** The suggestion figures at 200 and 1,000 pending suggestions (one per block). */
export async function benchSuggestions(sizes = [200, 1_000]): Promise<SuggestionBenchRow[]> {
  const rows: SuggestionBenchRow[] = [];
  for (const blocks of sizes) rows.push(await measure(blocks));
  return rows;
}

export function printSuggestions(rows: SuggestionBenchRow[]): void {
  console.log("\nSuggestions (headless, Yjs-bound editors): a replaceText over every block");
  console.table(
    rows.map((row) => ({
      "pending suggestions": row.blocks,
      "edit as suggestions / directly (ms)": `${row.suggestEditMs} / ${row.directEditMs}`,
      "Accept all (ms)": row.acceptAllMs,
      "÷ direct edit": `${row.acceptVsDirect}×`,
      target: "≤ 100 ms, ≤ 2× direct",
      "Yjs KB: direct / accepted / rejected": `${row.directKB} / ${row.acceptedKB} / ${row.rejectedKB}`,
    })),
  );
}
