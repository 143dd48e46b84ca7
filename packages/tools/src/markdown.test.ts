import { describe, expect, it } from "vitest";
import { createDocumentEditor } from "./document-editor.ts";
import {
  exportMarkdown,
  importMarkdown,
  looksLikeMarkdown,
  markdownToSerializedBlocks,
  serializedBlocksToMarkdown,
} from "./markdown.ts";

const roundTrips: [string, string][] = [
  ["headings", "# One\n\n## Two\n\n### Three\n\n###### Six"],
  ["bullet list", "- a\n- b\n  - nested"],
  ["numbered list", "1. first\n2. second"],
  ["check list", "- [ ] todo\n- [x] done"],
  ["quote", "> quoted text"],
  ["code block", "```ts\nconst a = 1;\n\nconst b = 2;\n```"],
  ["inline formats", "Some **bold**, *italic*, ~~struck~~ and `code` text."],
  ["link", "See [the docs](https://lexical.dev) now."],
  ["mixed document", "# Title\n\nIntro with **bold**.\n\n- one\n- two\n\n> note\n\n```\ncode\n```\n\nEnd."],
];

describe("markdown", () => {
  it.each(roundTrips)("round-trips %s unchanged", (_name, markdown) => {
    expect(exportMarkdown(createDocumentEditor({ markdown }))).toBe(markdown);
  });

  it("replaces the whole document on import", () => {
    const editor = createDocumentEditor({ markdown: "old" });
    importMarkdown(editor, "# new");
    expect(exportMarkdown(editor)).toBe("# new");
  });

  it("renders each serialized block on its own", () => {
    const blocks = markdownToSerializedBlocks("# T\n\n- a\n- b\n\n```\nx\n\ny\n```");
    expect(serializedBlocksToMarkdown(blocks)).toEqual(["# T", "- a\n- b", "```\nx\n\ny\n```"]);
  });

  it.each([
    ["# Title", true],
    ["- one\n- two", true],
    ["1. first", true],
    ["> quoted", true],
    ["```\ncode\n```", true],
    ["| a | b |\n| - | - |", true],
    ["Some **bold** words", true],
    ["See [the docs](https://lexical.dev).", true],
    ["Call `run()` now", true],
    ["Dear Sam,\nthanks for the notes. See you at 3 - or later.", false],
    ["Prices rose 4.5% in Q1 (see p. 2).", false],
  ])("tells Markdown source from prose: %j", (text, expected) => {
    expect(looksLikeMarkdown(text)).toBe(expected);
  });
});
