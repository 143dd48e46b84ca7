// Markdown benchmark: a 10,000-block document (the full bench's size) of mixed content (headings, formatted paragraphs,
// nested and task lists, quotes, code, tables) loaded from Markdown and exported cold (a fresh
// editor, nothing cached). Beside it, the floor (micromark parsing to mdast, and mdast-util-to-
// markdown writing it, with no editor at all) and the peer: @lexical/markdown, Lexical's own
// importer and exporter, on the same document. Figures, not assertions.

import {
  createDocumentEditor,
  editorNodes,
  exportMarkdown,
  parseMarkdown,
  writeMarkdown,
} from "@coauthor/tools";
import { createHeadlessEditor } from "@lexical/headless";
import {
  $convertFromMarkdownString,
  $convertToMarkdownString,
  CHECK_LIST,
  TRANSFORMERS,
} from "@lexical/markdown";
import type { BenchSizes } from "./sizes.ts";
import { percentile, round } from "./stats.ts";
import { markdownDocument } from "./tools.ts";

export type MarkdownBenchRow = {
  figure: string;
  coauthor: number;
  floor: number;
  peer: number;
  target: string;
};

function median(samples: number[]): number {
  return round(percentile(samples, 50));
}

function timed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

function peerEditor() {
  return createHeadlessEditor({
    nodes: [...editorNodes],
    onError: (error) => {
      throw error;
    },
  });
}

const PEER_TRANSFORMERS = [CHECK_LIST, ...TRANSFORMERS];

/** Load and cold export of a 10,000-block document: Coauthor, the floor and @lexical/markdown. */
export function benchMarkdown({ blocks, runs }: BenchSizes["markdown"]): MarkdownBenchRow[] {
  const markdown = markdownDocument(blocks);
  const load: number[] = [];
  const loadFloor: number[] = [];
  const loadPeer: number[] = [];
  const exportCold: number[] = [];
  const exportFloor: number[] = [];
  const exportPeer: number[] = [];
  for (let run = 0; run < runs; run++) {
    let editor = createDocumentEditor();
    load.push(timed(() => (editor = createDocumentEditor({ markdown }))));
    let tree = parseMarkdown("");
    loadFloor.push(timed(() => (tree = parseMarkdown(markdown))));
    const peer = peerEditor();
    loadPeer.push(
      timed(() =>
        peer.update(() => $convertFromMarkdownString(markdown, PEER_TRANSFORMERS), { discrete: true }),
      ),
    );
    // Cold: a fresh editor from the saved state, so no block's Markdown is cached yet.
    const fresh = createDocumentEditor({ state: editor.getEditorState().toJSON() });
    exportCold.push(timed(() => exportMarkdown(fresh)));
    exportFloor.push(timed(() => writeMarkdown(tree.children)));
    exportPeer.push(timed(() => peer.read(() => $convertToMarkdownString(PEER_TRANSFORMERS))));
  }
  return [
    {
      figure: `load ${blocks.toLocaleString("en")} blocks from Markdown (ms)`,
      coauthor: median(load),
      floor: median(loadFloor),
      peer: median(loadPeer),
      target: "≤ 1,500",
    },
    {
      figure: `export ${blocks.toLocaleString("en")} blocks to Markdown, cold (ms)`,
      coauthor: median(exportCold),
      floor: median(exportFloor),
      peer: median(exportPeer),
      target: "≤ 100",
    },
  ];
}

/** Prints the Markdown table (`runs`: how many runs each median is of). */
export function printMarkdown(rows: MarkdownBenchRow[], runs: number): void {
  console.log(
    `\nMarkdown: Coauthor beside the floor (micromark / mdast-util-to-markdown alone) and @lexical/markdown (median of ${runs})\n`,
  );
  console.table(
    rows.map((row) => ({ ...row, "÷ peer": row.peer > 0 ? `${round(row.coauthor / row.peer)}×` : "–" })),
  );
}
