import { describe } from "vitest";
import { DOC, fail, itAppliesCases, itRejectsCases, type ToolCase } from "../tool-cases.ts";

const same = (n: number) => (i: string[]) => ({ ok: true as const, blockIds: [i[n] ?? ""] });

const applies: ToolCase[] = [
  {
    name: "formatText makes matched text italic",
    tool: "formatText",
    input: (i) => ({ blockId: i[1], text: "paragraph", add: ["italic"] }),
    output: same(1),
    after: DOC.replace("paragraph", "*paragraph*"),
  },
  {
    name: "formatText across differently formatted text",
    tool: "formatText",
    input: (i) => ({ blockId: i[1], text: "with bold", add: ["strikethrough"] }),
    output: same(1),
    after: DOC.replace("with **bold**", "~~with **bold**~~"),
  },
  {
    name: "formatText removes bold",
    tool: "formatText",
    input: (i) => ({ blockId: i[1], text: "bold", remove: ["bold"] }),
    output: same(1),
    after: DOC.replace("**bold**", "bold"),
  },
  {
    name: "formatText on the second occurrence",
    tool: "formatText",
    input: (i) => ({ blockId: i[4], text: "one", occurrence: 2, add: ["bold"] }),
    output: same(4),
    after: DOC.replace("one, one", "one, **one**"),
  },
  {
    name: "formatText by offsets adds a link",
    tool: "formatText",
    input: (i) => ({ blockId: i[4], start: 0, end: 4, link: "https://example.com" }),
    output: same(4),
    after: DOC.replace("Last", "[Last](https://example.com)"),
  },
  {
    name: "formatText removes a link",
    markdown: "See [docs](https://x.dev) now",
    tool: "formatText",
    input: (i) => ({ blockId: i[0], text: "docs", link: null }),
    output: same(0),
    after: "See docs now",
  },
  {
    name: "formatText inside a list item",
    tool: "formatText",
    input: (_i, items) => ({ blockId: items[1], text: "two", add: ["code"] }),
    output: (_i, _a, items) => ({ ok: true, blockIds: [items[1] ?? ""] }),
    after: DOC.replace("- two", "- `two`"),
  },
  {
    name: "formatText inside a table cell",
    markdown: "| a | b |\n| - | - |\n| 1 | 2 |",
    tool: "formatText",
    input: (i) => ({ blockId: i[0], text: "2", add: ["bold"] }),
    output: same(0),
    after: "| a | b |\n| - | - |\n| 1 | **2** |",
  },
];

const rejects: ToolCase[] = [
  {
    name: "formatText of an unknown block",
    tool: "formatText",
    input: () => ({ blockId: "bmissing0", text: "a", add: ["bold"] }),
    output: fail("unknown-block", "bmissing0"),
  },
  {
    name: "formatText of text that is not there",
    tool: "formatText",
    input: (i) => ({ blockId: i[1], text: "zebra", add: ["bold"] }),
    output: fail("not-found", "zebra"),
  },
  {
    name: "formatText with a range past the end",
    tool: "formatText",
    input: (i) => ({ blockId: i[0], start: 2, end: 99, add: ["bold"] }),
    output: fail("invalid-range", "5"),
  },
  {
    name: "formatText with an empty range",
    tool: "formatText",
    input: (i) => ({ blockId: i[0], start: 2, end: 2, add: ["bold"] }),
    output: fail("invalid-range"),
  },
  {
    name: "formatText without text or range",
    tool: "formatText",
    input: (i) => ({ blockId: i[0], add: ["bold"] }),
    output: fail("invalid-range", "text"),
  },
  {
    name: "formatText without any change",
    tool: "formatText",
    input: (i) => ({ blockId: i[0], text: "Title" }),
    output: fail("invalid-input", "add"),
  },
  {
    name: "formatText with an unknown format",
    tool: "formatText",
    input: (i) => ({ blockId: i[0], text: "Title", add: ["blink"] }),
    output: fail("invalid-input", "add"),
  },
  {
    name: "formatText with a javascript: link",
    tool: "formatText",
    input: (i) => ({ blockId: i[0], text: "Title", link: "javascript:alert(1)" }),
    output: fail("invalid-input", "link"),
  },
  {
    name: "formatText of a whole list",
    tool: "formatText",
    input: (i) => ({ blockId: i[2], text: "one", add: ["bold"] }),
    output: fail("wrong-block-type", "item"),
  },
  {
    name: "formatText in a code block",
    markdown: "```\nx\n```",
    tool: "formatText",
    input: (i) => ({ blockId: i[0], text: "x", add: ["bold"] }),
    output: fail("wrong-block-type", "code"),
  },
];

describe("formatText", () => {
  itAppliesCases(applies);
  itRejectsCases(rejects);
});
