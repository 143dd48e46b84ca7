import fc from "fast-check";
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import { corpus } from "./markdown-checks.ts";
import { MAX_PARAGRAPH_MARKERS, markdownSourceProblem, type SourceLimits } from "./markdown-limits.ts";

// The pre-scan's promise is that it never counts less than micromark finds. These properties check
// it against micromark's own tree on random documents built from the constructs that open
// containers, paragraphs and tables: narrowed to one less than what the tree holds, the scan must
// refuse (a footnote definition inside another block is refused whatever the limits).
// content-gate.test.ts checks the limits themselves at every door.

const UNLIMITED: SourceLimits = {
  nesting: Number.POSITIVE_INFINITY,
  containers: Number.POSITIVE_INFINITY,
  cells: Number.POSITIVE_INFINITY,
  paragraphMarkers: Number.POSITIVE_INFINITY,
};

const PREFIXES = [
  "",
  "",
  "> ",
  ">",
  ">>",
  " > ",
  "\t> ",
  "- ",
  "-\t",
  "* ",
  "+ ",
  "1. ",
  "10. ",
  "2) ",
  "  ",
  "   ",
  "    ",
  "\t",
  "[^n]: ",
];
const BODIES = [
  "text",
  "*a*",
  "**b**",
  "_c_",
  "~~d~~",
  "[l](u)",
  "![i](u)",
  // Not "[x]": after an empty list item ("-\n[x] a") it trips an assertion of
  // mdast-util-gfm-task-list-item's development build, which vitest loads.
  "[z]",
  "a*",
  "*a",
  "`co*de`",
  "`",
  "| a | b |",
  "|-|-|",
  "| *a* | [b] |",
  "---",
  "***",
  "===",
  "# h *e*",
  "```",
  "~~~",
  "<div>",
  "<!--",
  "-->",
  "\\*",
  "[^n]",
  "***x***",
  "a_b_c",
  "[t]: /u",
  "|",
  "a | b",
  "\\|",
  "<http://a>",
  "` a`b`",
  "-",
];

/** A line: container prefixes, then a few bodies. */
const line = fc
  .tuple(
    fc.array(fc.constantFrom(...PREFIXES), { maxLength: 4 }),
    fc.array(fc.constantFrom(...BODIES), { minLength: 1, maxLength: 4 }),
  )
  .map(([prefixes, bodies]) => prefixes.join("") + bodies.join(" "));
/** A document of such lines and blank lines. */
const documents = fc
  .array(fc.oneof({ weight: 5, arbitrary: line }, { weight: 1, arbitrary: fc.constant("") }), {
    minLength: 1,
    maxLength: 40,
  })
  .map((lines) => lines.join("\n"));

/** Unescaped emphasis and link markers in `text`, as the scan counts them. */
function markers(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if ("*_~[]".includes(text[i] ?? "")) count++;
  }
  return count;
}

/** What micromark's tree holds: the most markers in one inline unit, containers on one path, cells in one row. */
function measured(markdown: string): { markers: number; depth: number; cells: number } {
  const out = { markers: 0, depth: 0, cells: 0 };
  // micromark itself, without the pre-scan in front of it (the documents are too short to be chunked).
  const root = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const pending: { node: Nodes; depth: number }[] = [{ node: root, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node } = next;
    const container =
      node.type === "blockquote" || node.type === "listItem" || node.type === "footnoteDefinition";
    const depth = next.depth + (container ? 1 : 0);
    out.depth = Math.max(out.depth, depth);
    if (node.type === "tableRow") out.cells = Math.max(out.cells, node.children.length);
    if (
      (node.type === "paragraph" || node.type === "heading" || node.type === "tableCell") &&
      node.position
    ) {
      const source = markdown.slice(node.position.start.offset, node.position.end.offset);
      out.markers = Math.max(out.markers, markers(source));
    }
    if ("children" in node) for (const child of node.children) pending.push({ node: child, depth });
  }
  return out;
}

describe("the Markdown pre-scan", () => {
  it("never counts fewer markers in a paragraph than micromark puts in one", () => {
    fc.assert(
      fc.property(documents, (markdown) => {
        const held = measured(markdown).markers;
        if (held === 0) return;
        const problem = markdownSourceProblem(markdown, { ...UNLIMITED, paragraphMarkers: held - 1 });
        expect(problem?.what, markdown).toMatch(/markers|footnote definition inside/);
      }),
      { numRuns: 600 },
    );
  });

  it("never counts fewer nested containers on a line than micromark nests", () => {
    fc.assert(
      fc.property(documents, (markdown) => {
        const held = measured(markdown).depth;
        if (held === 0) return;
        const problem = markdownSourceProblem(markdown, { ...UNLIMITED, nesting: held - 1 });
        expect(problem?.what, markdown).toMatch(/nested quotes or list items|footnote definition inside/);
      }),
      { numRuns: 600 },
    );
  });

  it("never counts fewer cells in a row than micromark finds", () => {
    fc.assert(
      fc.property(documents, (markdown) => {
        const held = measured(markdown).cells;
        if (held === 0) return;
        const problem = markdownSourceProblem(markdown, { ...UNLIMITED, cells: held - 1 });
        expect(problem?.what, markdown).toMatch(/table row|footnote definition inside/);
      }),
      { numRuns: 600 },
    );
  });

  it("names the line where the paragraph past the limit starts", () => {
    const dense = `${"*a* ".repeat(MAX_PARAGRAPH_MARKERS / 2)}\nstill the same paragraph *b*`;
    expect(markdownSourceProblem(`Intro.\n\n${dense}`)).toEqual({
      what: "more than 256 emphasis or link markers (*, _, ~, [, ]) in one paragraph",
      line: 3,
    });
    // The same markers spread over paragraphs are fine.
    expect(markdownSourceProblem(`${"*a* ".repeat(100)}\n\n${"*a* ".repeat(100)}`)).toBeNull();
  });

  it("skips a code block fenced at column 0, whatever it holds", () => {
    const code = Array.from({ length: 300 }, (_, i) => `${" ".repeat(200)}- *x[${i}]* | ${"|".repeat(80)}`);
    expect(markdownSourceProblem(["```", ...code, "```", "", "after"].join("\n"))).toBeNull();
    // An unclosed fence runs to the end of the document, as in CommonMark.
    expect(markdownSourceProblem(["```", ...code].join("\n"))).toBeNull();
  });

  it("accepts every real document of the corpus", () => {
    const documents = corpus(Number(process.env.MARKDOWN_CORPUS_LIMIT ?? 400));
    const refused = documents
      .map(({ path, markdown }) => ({ path, problem: markdownSourceProblem(markdown) }))
      .filter(({ problem }) => problem !== null);
    expect(documents.length).toBeGreaterThan(300);
    expect(refused).toEqual([]);
  });
});
