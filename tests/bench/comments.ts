// Comments benchmark, headless (no server): what 1,000 comment threads cost a document that opens.
// A thread is a mark around its text (a node state on the text) and an entry in the shared
// document's thread map (comment-threads.ts), so a copy that opens the document binds both. The
// figure: binding (what a copy does as it opens the document) with and without the threads, the
// median of several opens, and the Yjs state's size; the target is within 1.2× of the
// document without them. Figures, not assertions.
import {
  $findQuoteRange,
  $getBlockId,
  $markCommentRange,
  addThread,
  bindDocumentEditor,
  yjsUpdateFromMarkdown,
} from "@coauthor/tools";
import { $getRoot } from "lexical";
import * as Y from "yjs";
import { percentile, round } from "./stats.ts";

export interface CommentBenchRow {
  blocks: number;
  threads: number;
  /** Median time to bind a copy of the document, without and with the threads. */
  openMs: number;
  openWithThreadsMs: number;
  ratio: number;
  stateKB: number;
  stateWithThreadsKB: number;
}

/** A paragraph of plain words, each paragraph's words its own (quotes find one place). */
function paragraph(i: number): string {
  return `Paragraph ${i} reviews the budget for item ${i}, the schedule for phase ${i} and the risks the team listed for release ${i}.`;
}

/** `threads` threads, two per paragraph from the first (on "budget for item N" and "phase N"). */
function withThreads(state: Uint8Array, threads: number): Uint8Array {
  const bound = bindDocumentEditor(state);
  const blockIds = bound.editor.read(() =>
    $getRoot()
      .getChildren()
      .map((block) => $getBlockId(block) ?? ""),
  );
  for (let n = 0; n < threads; n++) {
    const block = Math.floor(n / 2);
    const quote = n % 2 === 0 ? `budget for item ${block}` : `phase ${block}`;
    const threadId = `t${n}`;
    bound.editor.update(
      () => {
        const range = $findQuoteRange(blockIds[block] ?? "", quote);
        if (range === null || $markCommentRange(range, quote, threadId) !== null)
          throw new Error(`could not mark "${quote}"`);
      },
      { discrete: true },
    );
    const at = Date.now();
    addThread(
      bound.doc,
      { id: threadId, quote, status: "open", at },
      {
        id: `c${n}`,
        author: { kind: "person", userId: "u1", name: "Alice" },
        body: `Is ${quote} right?`,
        at,
      },
    );
  }
  const result = Y.encodeStateAsUpdate(bound.doc);
  bound.dispose();
  return result;
}

/** The median time to bind a copy of `state`, over `runs` opens. */
function openTime(state: Uint8Array, runs: number): number {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    const bound = bindDocumentEditor(state);
    times.push(performance.now() - start);
    bound.dispose();
  }
  return percentile(times, 50);
}

/** The cost of `threads` threads on a document of `blocks` paragraphs (blocks ≥ threads / 2). */
export function benchComments({
  blocks,
  threads,
  runs,
}: {
  blocks: number;
  threads: number;
  runs: number;
}): CommentBenchRow {
  const plain = yjsUpdateFromMarkdown(Array.from({ length: blocks }, (_, i) => paragraph(i)).join("\n\n"));
  const commented = withThreads(plain, threads);
  const openMs = openTime(plain, runs);
  const openWithThreadsMs = openTime(commented, runs);
  return {
    blocks,
    threads,
    openMs: round(openMs),
    openWithThreadsMs: round(openWithThreadsMs),
    ratio: round(openWithThreadsMs / openMs),
    stateKB: round(plain.byteLength / 1024),
    stateWithThreadsKB: round(commented.byteLength / 1024),
  };
}

export function printComments(row: CommentBenchRow): void {
  console.log(
    "\nComments (headless): opening a document (binding a copy) with and without its comment threads",
  );
  console.table([
    {
      blocks: row.blocks,
      threads: row.threads,
      "open ms (no threads)": row.openMs,
      "open ms (threads)": row.openWithThreadsMs,
      ratio: row.ratio,
      "target ratio": "≤ 1.2",
      "state KB (no threads → threads)": `${row.stateKB} → ${row.stateWithThreadsKB}`,
    },
  ]);
}
