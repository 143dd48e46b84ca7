// Editor-tool benchmark: headless documents of 100, 1,000 and 10,000 blocks of mixed content (the
// full bench's sizes);
// each tool runs many times on the live document, each call on a different block, and the
// document is restored between tools. Figures, not assertions (see tools-main.ts).
import {
  $getBlockId,
  $getBlockType,
  createDocumentEditor,
  exportMarkdown,
  runEditorTool,
} from "@coauthor/tools";
import { $getRoot, type LexicalEditor } from "lexical";
import type { BenchSizes } from "./sizes.ts";
import { percentile, round } from "./stats.ts";

/** One measured tool at one document size. */
export type ToolBenchRow = {
  blocks: number;
  tool: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
  /** Median divided by the same tool's median at the smallest document. */
  vsSmallest: number;
};

/** Rounds to 0.001 (sub-millisecond tools need the third decimal). */
const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** Ten blocks of realistic mixed content; every 50th group also holds a table. */
function group(n: number): string {
  const parts = [
    `## Section ${n}`,
    `Paragraph ${n} with **bold**, *italic* and a [link](https://example.com/${n}) in running text that goes on for a while.`,
    `Another paragraph ${n} about the plan, with \`code\` and ~~struck~~ words.`,
    `- first point ${n}\n- second point with **emphasis**\n    - nested detail`,
    `> A quote worth keeping, number ${n}.`,
    `1. step one\n2. step two`,
    `\`\`\`ts\nconst value = ${n};\n\`\`\``,
    `Closing paragraph ${n} for the section.`,
    `- [ ] open task ${n}\n- [x] done task`,
    n % 50 === 0 ? `| Name | Value |\n| --- | --- |\n| a${n} | 1 |\n| b${n} | 2 |` : `Filler paragraph ${n}.`,
  ];
  return parts.join("\n\n");
}

/** A document of `blocks` blocks of mixed content, as Markdown (ten blocks per group). */
export function markdownDocument(blocks: number): string {
  return Array.from({ length: Math.ceil(blocks / 10) }, (_, i) => group(i)).join("\n\n");
}

function buildDocument(blocks: number): LexicalEditor {
  // Import one hundred-block chunk, then repeat its JSON (without ids) up to the size wanted.
  const chunk = createDocumentEditor({
    markdown: Array.from({ length: 10 }, (_, i) => group(i)).join("\n\n"),
  });
  const json = chunk.getEditorState().toJSON();
  const strip = (node: unknown): unknown => {
    if (typeof node !== "object" || node === null) return node;
    const { $: _state, children, ...rest } = node as { $?: unknown; children?: unknown[] };
    return children === undefined ? rest : { ...rest, children: children.map(strip) };
  };
  const children = json.root.children.map(strip);
  const repeated = Array.from({ length: blocks }, (_, i) => children[i % children.length]);
  return createDocumentEditor({
    state: { ...json, root: { ...json.root, children: repeated } } as typeof json,
  });
}

type Targets = Record<string, string[]>;

/** Block ids by type, spread over the document. */
function targets(editor: LexicalEditor): Targets {
  return editor.read(() => {
    const byType: Targets = { any: [] };
    for (const node of $getRoot().getChildren()) {
      byType.any?.push($getBlockId(node) ?? "");
      const type = $getBlockType(node);
      byType[type] ??= [];
      byType[type].push($getBlockId(node) ?? "");
    }
    return byType;
  });
}

function pick(list: string[] | undefined, i: number): string {
  if (list === undefined || list.length === 0) throw new Error("no block of the needed type");
  // Stride through the document so calls hit the start, middle and end.
  return list[(i * 7919) % list.length] ?? "";
}

type Case = { tool: string; input: (i: number, t: Targets) => unknown; name?: string };

const CASES: Case[] = [
  {
    tool: "readDocument",
    name: "readDocument (one page)",
    input: (i, t) => ({ fromBlockId: pick(t["heading-2"], i), maxBlocks: 200 }),
  },
  {
    tool: "findText",
    name: "findText (one block)",
    input: (i, t) => ({ query: "aragraph", blockId: pick(t.paragraph, i) }),
  },
  {
    tool: "findText",
    name: "findText (whole document)",
    input: (i) => ({ query: `Section ${i}\\b`, regex: true, maxResults: 5 }),
  },
  {
    tool: "insertBlocks",
    input: (i, t) => ({
      markdown: `New paragraph ${i} with **bold**.\n\n- a\n- b`,
      position: { at: "after", blockId: pick(t.paragraph, i) },
    }),
  },
  {
    tool: "replaceBlock",
    input: (i, t) => ({ blockId: pick(t.paragraph, i), markdown: `Rewritten ${i} *text*.` }),
  },
  {
    tool: "replaceText",
    name: "replaceText (one block)",
    input: (i, t) => ({ blockId: pick(t.paragraph, i), search: "aragraph", replace: "aragraphs" }),
  },
  { tool: "deleteBlocks", input: (i, t) => ({ blockIds: [pick(t.any, i)] }) },
  {
    tool: "moveBlock",
    input: (i, t) => ({
      blockId: pick(t.quote, i),
      position: { at: "after", blockId: pick(t["heading-2"], i + 3) },
    }),
  },
  {
    tool: "setBlockType",
    input: (i, t) => ({ blockId: pick(t.paragraph, i), type: i % 2 ? "heading-3" : "quote" }),
  },
  {
    tool: "formatText",
    input: (i, t) => ({ blockId: pick(t.paragraph, i), text: "aragraph", add: ["bold"] }),
  },
  {
    tool: "insertTable",
    input: (i, t) => ({
      rows: [
        ["A", "B"],
        ["1", "2"],
      ],
      position: { at: "before", blockId: pick(t.quote, i) },
    }),
  },
  {
    tool: "updateTableCell",
    input: (i, t) => ({ blockId: pick(t.table, i), row: 1, column: 1, text: `v${i}` }),
  },
];

async function time(fn: () => unknown | Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function measure(editor: LexicalEditor, t: Targets, item: Case, runs: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = -5; i < runs; i++) {
    let result: { ok: boolean } = { ok: true };
    const ms = await time(async () => {
      result = await runEditorTool(editor, item.tool, item.input(i + 5, t));
    });
    if (!result.ok) throw new Error(`${item.tool} failed: ${JSON.stringify(result)}`);
    if (i >= 0) samples.push(ms);
  }
  return samples;
}

/** Median and p95 per tool, and for whole-document Markdown export, at each document size. */
export async function benchTools(sizes: BenchSizes["tools"]): Promise<ToolBenchRow[]> {
  const rows: ToolBenchRow[] = [];
  const smallest = new Map<string, number>();
  const add = (blocks: number, tool: string, samples: number[]) => {
    const median = percentile(samples, 50);
    if (!smallest.has(tool)) smallest.set(tool, median);
    const base = smallest.get(tool) ?? median;
    rows.push({
      blocks,
      tool,
      runs: samples.length,
      medianMs: round3(median),
      p95Ms: round3(percentile(samples, 95)),
      vsSmallest: round(median / base),
    });
  };
  for (const size of sizes.blocks) {
    const editor = buildDocument(size);
    const base = editor.getEditorState();
    const t = targets(editor);
    for (const item of CASES) {
      editor.setEditorState(base);
      // Untimed: the restore above swaps the whole state, which costs one index rebuild.
      await runEditorTool(editor, "findText", { query: "x", blockId: pick(t.paragraph, 0) });
      add(size, item.name ?? item.tool, await measure(editor, t, item, sizes.runs));
    }
    editor.setEditorState(base);
    const exports: number[] = [];
    for (let i = 0; i < 12; i++) exports.push(await time(() => exportMarkdown(editor)));
    add(size, "whole document to Markdown", exports.slice(2));
  }
  return rows;
}
