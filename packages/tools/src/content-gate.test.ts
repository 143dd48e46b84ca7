import { hasForbiddenControl, MAX_NESTING_DEPTH } from "@coauthor/types";
import { createHeadlessEditor } from "@lexical/headless";
import fc from "fast-check";
import { $getRoot, $isElementNode, type LexicalEditor, type LexicalNode } from "lexical";
import { describe, expect, it } from "vitest";
import { InvalidContentError } from "./content-problem.ts";
import { createDocumentEditor } from "./document-editor.ts";
import { editorNodes } from "./editor-nodes.ts";
import { runEditorTool } from "./editor-tools.ts";
import { $readMarkdownBlocks, exportMarkdown, importMarkdown } from "./markdown.ts";
import { blockIds, itemIds, snapshot } from "./tool-cases.ts";

// The Markdown door of the content rule: what the import refuses and with which words, that it
// never overflows the stack or leaves part of a refused text behind, and that the tools answer a
// refusal as a failure with the document unchanged. markdown-limits.test.ts checks the pre-scan
// against micromark itself.

const quotes = (depth: number) => `${"> ".repeat(depth)}x`;
/** A list nested `depth` levels, one item per line, each indented under the one before. */
const staircase = (depth: number) =>
  Array.from({ length: depth }, (_, level) => `${"  ".repeat(level)}- item ${level}`).join("\n");
const table = (columns: number, bodyRows: number) =>
  [
    `|${" h |".repeat(columns)}`,
    `|${"-|".repeat(columns)}`,
    ...Array.from({ length: bodyRows }, () => `|${" c |".repeat(columns)}`),
  ].join("\n");

/** What importing `markdown` threw: the refusal's words, or "accepted". */
function importOutcome(markdown: string): string {
  try {
    createDocumentEditor({ markdown });
    return "accepted";
  } catch (error) {
    // A RangeError (stack overflow) or any other error fails the test here.
    if (error instanceof InvalidContentError) return error.message;
    throw error;
  }
}

/** The deepest element nesting of the editor's document (a top-level block is 1). */
function deepest(editor: LexicalEditor): number {
  return editor.read(() => {
    let max = 0;
    const pending: { node: LexicalNode; depth: number }[] = $getRoot()
      .getChildren()
      .map((node) => ({ node, depth: 1 }));
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (!$isElementNode(next.node)) continue;
      max = Math.max(max, next.depth);
      for (const child of next.node.getChildren()) pending.push({ node: child, depth: next.depth + 1 });
    }
    return max;
  });
}

describe("Markdown past the content rule", () => {
  it.each([
    ["2,000 nested quotes", quotes(2_000), "more than 64 nested quotes or list items at line 1"],
    [
      "5,000 nested list items on one line",
      `${"- ".repeat(5_000)}x`,
      "more than 64 nested quotes or list items at line 1",
    ],
    [
      "100 nested list items, one a line",
      staircase(100),
      "more than 64 nested quotes or list items at line 65",
    ],
    [
      "a list nested 33 deep (66 levels in the editor)",
      staircase(33),
      "nesting deeper than 64 levels at line 1",
    ],
    [
      "5,000 nested emphasis pairs",
      `${"*a ".repeat(5_000)}x${" b*".repeat(5_000)}`,
      "more than 256 emphasis or link markers (*, _, ~, [, ]) in one paragraph at line 1",
    ],
    [
      "20,000 stars around a word",
      `${"*".repeat(20_000)}x${"*".repeat(20_000)}`,
      "more than 256 emphasis or link markers (*, _, ~, [, ]) in one paragraph at line 1",
    ],
    [
      "2,000 nested images",
      `${"![".repeat(2_000)}x${"](u)".repeat(2_000)}`,
      "more than 256 emphasis or link markers (*, _, ~, [, ]) in one paragraph at line 1",
    ],
    ["a table of 50,000 columns", table(50_000, 1), "a table row of more than 64 cells at line 1"],
    ["a table of 65 columns", `Intro\n\n${table(65, 1)}`, "a table row of more than 64 cells at line 3"],
    ["a table of 20,032 cells", table(64, 312), "a table of more than 20,000 cells at line 1"],
    [
      "10,001 list items",
      Array.from({ length: 10_001 }, (_, n) => `- ${n}`).join("\n"),
      "more than 10,000 quotes and list items in the document at line 10001",
    ],
    [
      "footnote definitions nested in each other",
      ["[^a]: one", "    [^b]: two"].join("\n"),
      "a footnote definition inside another block at line 2",
    ],
  ])("refuses %s, naming what and where", (_name, markdown, message) => {
    expect(importOutcome(markdown)).toBe(message);
  });

  it("names the document's line in a document parsed in chunks", () => {
    const before = Array.from({ length: 2_000 }, (_, n) => `Paragraph ${n} of a long document.`);
    const markdown = [...before, staircase(33)].join("\n\n");
    expect(markdown.length).toBeGreaterThan(40_000);
    expect(importOutcome(markdown)).toBe("nesting deeper than 64 levels at line 4001");
  });

  it("accepts content right at the rule's limits", () => {
    const limits: [string, number][] = [
      [quotes(MAX_NESTING_DEPTH), 64],
      [staircase(32), 64],
      [table(64, 311), 4],
      [`${"*a* ".repeat(64)}`, 1],
    ];
    for (const [markdown, depth] of limits) expect(deepest(createDocumentEditor({ markdown }))).toBe(depth);
  });

  it("drops control characters from what Markdown makes instead of refusing it", () => {
    const editor = createDocumentEditor({
      markdown: "a\u0000b &#13; c\u0007\r\n\n```x\u0001\ncode\r\n```\n\n[link](<u\u0002rl> 't\u0003')",
    });
    const markdown = exportMarkdown(editor);
    expect(hasForbiddenControl(markdown)).toBe(false);
    // NUL is U+FFFD in CommonMark; the other controls go, and `&#13;` is a soft break (a space).
    expect(markdown).toBe('a\ufffdb c\n\n```x\ncode\n```\n\n[link](url "t")');
  });

  it("leaves the document as it was when an import is refused", () => {
    const editor = createDocumentEditor({ markdown: "Kept." });
    expect(() => importMarkdown(editor, quotes(2_000))).toThrow(InvalidContentError);
    expect(exportMarkdown(editor)).toBe("Kept.");
  });

  it("reads Markdown as a refusal value for callers that answer it", () => {
    const editor = createHeadlessEditor({
      nodes: [...editorNodes],
      onError: (error) => {
        throw error;
      },
    });
    let read: ReturnType<typeof $readMarkdownBlocks> | undefined;
    editor.update(
      () => {
        read = $readMarkdownBlocks(quotes(70));
      },
      { discrete: true },
    );
    expect(read).toEqual({
      ok: false,
      problem: { what: "more than 64 nested quotes or list items", line: 1 },
    });
  });
});

describe("agent tools given Markdown past the rule", () => {
  /** Runs `tool` and checks it failed with invalid-content, mentioning `mentions`, the document unchanged. */
  async function refused(
    markdown: string,
    tool: string,
    input: (ids: string[], items: string[]) => unknown,
    mentions: string,
  ) {
    const editor = createDocumentEditor({ markdown });
    const before = snapshot(editor);
    const result = await runEditorTool(editor, tool, input(blockIds(editor), itemIds(editor)));
    expect(result).toEqual({
      ok: false,
      code: "invalid-content",
      message: expect.stringContaining(mentions),
    });
    expect(snapshot(editor)).toEqual(before);
  }

  it("insertBlocks fails with the refusal's words", async () => {
    await refused(
      "One",
      "insertBlocks",
      () => ({ markdown: quotes(2_000), position: { at: "end" } }),
      "markdown: more than 64 nested quotes or list items at line 1",
    );
  });

  it("replaceBlock fails with the refusal's words", async () => {
    await refused(
      "One",
      "replaceBlock",
      (ids) => ({ blockId: ids[0], markdown: `${"*a ".repeat(500)}x${" b*".repeat(500)}` }),
      "markdown: more than 256 emphasis",
    );
  });

  it("replaceBlock checks list items at the depth of the item they replace", async () => {
    // The deepest item is at depth 62; a list three levels deep put in its place reaches 66.
    await refused(
      staircase(31),
      "replaceBlock",
      (_ids, items) => ({ blockId: items.at(-1), markdown: "- a\n  - b\n    - c" }),
      "nesting deeper than 64 levels",
    );
  });

  it("insertBlocks checks list items at the depth of the item they join", async () => {
    await refused(
      staircase(31),
      "insertBlocks",
      (_ids, items) => ({
        markdown: "- a\n  - b\n    - c",
        position: { at: "after", blockId: items.at(-1) },
      }),
      "nesting deeper than 64 levels",
    );
  });

  it("updateTableCell fails before it clears the cell", async () => {
    await refused(
      table(2, 1),
      "updateTableCell",
      (ids) => ({ blockId: ids[0], row: 1, column: 0, text: quotes(100) }),
      "text: more than 64 nested quotes",
    );
  });

  it("insertTable refuses a table past the rule's cells", async () => {
    const rows = Array.from({ length: 500 }, () => Array.from({ length: 50 }, () => "c"));
    await refused(
      "One",
      "insertTable",
      () => ({ rows, position: { at: "end" } }),
      "rows: a table of more than 20,000 cells",
    );
  });
});

// Random shapes on both sides of each limit: refused past it, read within it.

const CONTAINERS = { quote: "> ", bullet: "- ", ordered: "1. " } as const;
type Container = keyof typeof CONTAINERS;

describe("nesting of random shape", () => {
  it("is read to its exact depth within the rule and refused past it", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<Container>("quote", "bullet", "ordered"), { minLength: 1, maxLength: 90 }),
        (chain) => {
          const markdown = `${chain.map((kind) => CONTAINERS[kind]).join("")}x`;
          // A quote is one level in the editor; a list item two (the list and the item).
          const depth = chain.reduce((sum, kind) => sum + (kind === "quote" ? 1 : 2), 0);
          const outcome = importOutcome(markdown);
          if (depth <= MAX_NESTING_DEPTH) {
            expect(outcome).toBe("accepted");
            expect(deepest(createDocumentEditor({ markdown }))).toBe(depth);
          } else expect(outcome).toMatch(/nest/);
        },
      ),
      { numRuns: 200 },
    );
  });
});

const INLINE = [
  ["*", "*"],
  ["**", "**"],
  ["~~", "~~"],
  ["[", "](u)"],
  ["![", "](u)"],
] as const;

describe("inline nesting of random shape", () => {
  it("is read within the paragraph's markers and refused past them", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: INLINE.length - 1 }), { minLength: 1, maxLength: 160 }),
        fc.integer({ min: 1, max: 4 }),
        (nesting, copies) => {
          const open = nesting.map((i) => INLINE[i]?.[0] ?? "").join("");
          const close = nesting
            .map((i) => INLINE[i]?.[1] ?? "")
            .reverse()
            .join("");
          const markdown = `${open}word${close} `.repeat(copies);
          const markers = [...markdown].filter((char) => "*_~[]".includes(char)).length;
          const outcome = importOutcome(markdown);
          if (markers <= 256) expect(outcome).toBe("accepted");
          else expect(outcome).toMatch(/emphasis or link markers/);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("tables of random size", () => {
  it("are read within the rule's columns and cells and refused past them", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 0, max: 400 }), (columns, bodyRows) => {
        const outcome = importOutcome(table(columns, bodyRows));
        if (columns > 64) expect(outcome).toMatch(/table row of more than 64 cells/);
        else if (columns * (bodyRows + 1) > 20_000) expect(outcome).toMatch(/more than 20,000 cells/);
        else expect(outcome).toBe("accepted");
      }),
      { numRuns: 12 },
    );
  });
});
