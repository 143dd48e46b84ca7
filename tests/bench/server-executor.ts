// Server executor benchmark, headless (no server): what the server pays to run one tool call of a
// run no tab executes (issue #39). For each call it binds a headless editor to a copy of the live
// document (collab/live-edit.ts), runs the tool and diffs the copy: measured here for documents of
// 2,000 and 10,000 blocks, with the memory the bound copy holds while the call runs. Figures, not
// assertions; the memory is read after a full collection when the bench runs with --expose-gc.
import { bindDocumentEditor, runEditorToolNow, yjsUpdateFromMarkdown } from "@coauthor/tools";
import * as Y from "yjs";
import { percentile, round } from "./stats.ts";

export interface ServerExecutorRow {
  blocks: number;
  /** Median time of one call: bind a copy, run insertBlocks at the end, encode the update. */
  callMs: number;
  /** Heap the bound copy holds (MB), or null when no full collection could be asked for. */
  boundHeapMB: number | null;
}

const collect = (): boolean => {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  return gc !== undefined;
};

function measure(blocks: number, runs: number): ServerExecutorRow {
  const markdown = Array.from({ length: blocks }, (_, i) => `Paragraph ${i} of the report, as written.`).join(
    "\n\n",
  );
  const state = yjsUpdateFromMarkdown(markdown);
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    const copy = bindDocumentEditor(state);
    const before = Y.encodeStateVector(copy.doc);
    runEditorToolNow(copy.editor, "insertBlocks", { markdown: `Added ${run}.`, position: { at: "end" } });
    Y.encodeStateAsUpdate(copy.doc, before);
    times.push(performance.now() - start);
    copy.dispose();
  }
  const collected = collect();
  const heapBefore = process.memoryUsage().heapUsed;
  const held = bindDocumentEditor(state);
  collect();
  const heapAfter = process.memoryUsage().heapUsed;
  held.dispose();
  return {
    blocks,
    callMs: round(percentile(times, 50)),
    boundHeapMB: collected ? round((heapAfter - heapBefore) / 1024 / 1024) : null,
  };
}

/** One row per document size (blocks). */
export function benchServerExecutor({
  blocks,
  runs,
}: {
  blocks: number[];
  runs: number;
}): ServerExecutorRow[] {
  return blocks.map((size) => measure(size, runs));
}

export function printServerExecutor(rows: ServerExecutorRow[]): void {
  console.log("\nServer executor (headless): one tool call run by the server on a copy of the live document");
  console.table(
    rows.map((row) => ({
      blocks: row.blocks,
      "call ms (bind + tool + update)": row.callMs,
      "bound copy heap MB": row.boundHeapMB ?? "run with --expose-gc",
    })),
  );
}
