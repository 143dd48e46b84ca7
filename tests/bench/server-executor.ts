// Server executor benchmark, headless (no server): what the server pays to run one tool call of a
// run no tab executes (issue #39). A call runs on a headless editor bound to a copy of the live
// document, kept between calls (collab/kept-copies.ts): it takes in what a co-editor changed since
// the last call, runs the tool and gives its update. Beside it, the peer: binding a new copy for
// every call, as the server did before. Documents of 2,000 and 10,000 blocks, with the memory a
// bound copy holds. Figures, not assertions; the memory is read after a full collection when the
// bench runs with --expose-gc.
import { bindDocumentEditor, flush, runEditorToolNow, yjsUpdateFromMarkdown } from "@coauthor/tools";
import * as Y from "yjs";
import { percentile, round } from "./stats.ts";

export interface ServerExecutorRow {
  blocks: number;
  /** Median time of one call on the kept copy: catch up with a co-editor's edit, run insertBlocks, encode the update. */
  keptCallMs: number;
  /** The same call binding a new copy each time (the peer). */
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
  const keptTimes: number[] = [];
  const live = new Y.Doc();
  Y.applyUpdate(live, state);
  const coEditor = bindDocumentEditor(state);
  const kept = bindDocumentEditor(state);
  for (let run = 0; run < runs; run++) {
    // A co-editor's paragraph reaches the live document between two of the server's calls.
    const theirs = Y.encodeStateVector(coEditor.doc);
    runEditorToolNow(coEditor.editor, "insertBlocks", {
      markdown: `Theirs ${run}.`,
      position: { at: "start" },
    });
    Y.applyUpdate(live, Y.encodeStateAsUpdate(coEditor.doc, theirs));
    const start = performance.now();
    Y.applyUpdate(kept.doc, Y.encodeStateAsUpdate(live, Y.encodeStateVector(kept.doc)));
    flush(kept.editor);
    const before = Y.encodeStateVector(kept.doc);
    runEditorToolNow(kept.editor, "insertBlocks", { markdown: `Added ${run}.`, position: { at: "end" } });
    Y.applyUpdate(live, Y.encodeStateAsUpdate(kept.doc, before));
    keptTimes.push(performance.now() - start);
    Y.applyUpdate(coEditor.doc, Y.encodeStateAsUpdate(live, Y.encodeStateVector(coEditor.doc)));
  }
  coEditor.dispose();
  kept.dispose();
  const collected = collect();
  const heapBefore = process.memoryUsage().heapUsed;
  const held = bindDocumentEditor(state);
  collect();
  const heapAfter = process.memoryUsage().heapUsed;
  held.dispose();
  return {
    blocks,
    keptCallMs: round(percentile(keptTimes, 50)),
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
      "call ms, kept copy (catch up + tool + update)": row.keptCallMs,
      "call ms, new copy each call (peer)": row.callMs,
      "bound copy heap MB": row.boundHeapMB ?? "run with --expose-gc",
    })),
  );
}
