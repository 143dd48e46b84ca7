import type { Nodes } from "mdast";
import { describe, expect, it } from "vitest";
import { corpus } from "./markdown-checks.ts";
import { splitTopLevel } from "./markdown-chunks.ts";
import { parseMarkdown } from "./markdown-syntax.ts";

/** The tree without source positions, which differ between a chunk and the whole by design. */
function withoutPositions(node: Nodes): unknown {
  const { position: _position, ...rest } = node as Nodes & { position?: unknown };
  if (!("children" in node)) return rest;
  return { ...rest, children: node.children.map((child) => withoutPositions(child as Nodes)) };
}

const whole = (markdown: string) =>
  withoutPositions(parseMarkdown(markdown, { minChunk: Number.POSITIVE_INFINITY }));
// Split at every point the scan allows, the hardest case for it.
const chunked = (markdown: string) => withoutPositions(parseMarkdown(markdown, { minChunk: 1 }));

describe("Markdown chunks", () => {
  it.each([
    ["a fenced code block with blank lines and unindented lines", "a\n\n```\nx\n\ny\n```\n\nb\n"],
    ["an HTML comment over blank lines", "a\n\n<!--\n\nhidden\n\n-->\n\nb\n"],
    ["a loose list", "- a\n\n- b\n\n1. c\n\n2. d\n\nafter\n"],
    [
      "a definition after the link that uses it",
      '[x][ref] and [y]\n\nmiddle\n\n[ref]: /one\n[y]: </two> "Two"\n',
    ],
    ["the first of two definitions of one label", "[a]\n\n[a]: /first\n\nmid\n\n[a]: /second\n"],
    ["a footnote defined in another run", "Text[^1].\n\nmore\n\n[^1]: The note.\n"],
  ])("parses %s the same as the whole document", (_name, markdown) => {
    expect(splitTopLevel(markdown, 1).join("\n")).toBe(markdown);
    expect(chunked(markdown)).toEqual(whole(markdown));
  });

  it("splits only between top-level blocks", () => {
    expect(splitTopLevel("a\n\n```\nx\n\ny\n```\n\nb", 1)).toEqual(["a\n", "```\nx\n\ny\n```\n", "b"]);
    expect(splitTopLevel("- a\n\n- b\n\nc", 1)).toEqual(["- a\n\n- b\n", "c"]);
  });

  it("parses every real document of the corpus the same in chunks as whole", () => {
    // 400 documents keep the package's suite under a minute; MARKDOWN_CORPUS_LIMIT raises both.
    const documents = corpus(Number(process.env.MARKDOWN_CORPUS_LIMIT ?? 400));
    const different = documents
      .filter(({ markdown }) => JSON.stringify(chunked(markdown)) !== JSON.stringify(whole(markdown)))
      .map(({ path }) => path);
    expect(documents.length).toBeGreaterThan(300);
    expect(different).toEqual([]);
  });
});
