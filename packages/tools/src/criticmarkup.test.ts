import { describe, expect, it } from "vitest";
import { decided, roundTrip } from "./criticmarkup.fixtures.ts";
import { CriticMarkupError } from "./criticmarkup-syntax.ts";
import { createDocumentEditor } from "./document-editor.ts";
import { exportMarkdown } from "./markdown.ts";
import { exportMarkdownView, hasPendingSuggestions } from "./markdown-views.ts";
import { runToolAsSuggestionNow } from "./suggest-tool-calls.ts";
import { listSuggestions, type SuggestionAuthor } from "./suggestions.ts";
import { blockIds } from "./tool-cases.ts";

// Every kind of suggestion the tools make, written as CriticMarkup and read back: the export of
// what was read is the export that was read, and accepting or rejecting it gives what accepting
// or rejecting the original gives.

const DOCUMENT = [
  "# Plan for {the} launch",
  "The quick brown fox jumps over the lazy dog.",
  "> A quote about ~> arrows and c++ code.",
  "```js\nconst x = a + b;\n```",
  "- one\n- two",
  "Last part with ++ and {braces}.",
  "Notes: {++ literal ++} and {>> too <<}.",
].join("\n\n");
const AGENT: SuggestionAuthor = { authorId: "alice", authorName: "Coauthor for Alice", runId: "run-1" };

type Call = { tool: string; input: Record<string, unknown> };
type Case = { name: string; calls: (ids: string[]) => Call[]; markup: string[] };

const CASES: Case[] = [
  {
    name: "a paragraph inserted, with a reason",
    calls: () => [
      {
        tool: "insertBlocks",
        input: { markdown: "A summary.", position: { at: "end" }, reason: "Ends it." },
      },
    ],
    markup: ["{++A summary.++}{>>Ends it.<<}"],
  },
  {
    name: "a paragraph deleted, without a reason",
    calls: (ids) => [{ tool: "deleteBlocks", input: { blockIds: [ids[1]] } }],
    markup: ["{--The quick brown fox jumps over the lazy dog.--}\n\n>"],
  },
  {
    name: "a word of a paragraph replaced, the reason holding delimiters",
    calls: () => [
      {
        tool: "replaceText",
        input: { search: "quick", replace: "slow", reason: "Slower {++ ~> <<} \\ ends." },
      },
    ],
    markup: ["The {~~quick~>slow~~}{>>Slower \\{++ ~\\> <<\\} \\\\ ends.<<} brown fox"],
  },
  {
    name: "a word of a heading replaced",
    calls: () => [{ tool: "replaceText", input: { search: "launch", replace: "release" } }],
    markup: ["# Plan for {the} {~~launch~>release~~}"],
  },
  {
    name: "a word of a quote replaced",
    calls: () => [{ tool: "replaceText", input: { search: "arrows", replace: "pointers" } }],
    markup: ["> A quote about \\~> {~~arrows~>pointers~~} and c++ code."],
  },
  {
    name: "a code block replaced",
    calls: (ids) => [
      { tool: "replaceBlock", input: { blockId: ids[3], markdown: "```js\nconst x = a - b;\n```" } },
    ],
    markup: ["```js\nconst x = a {~~+~>-~~} b;\n```"],
  },
  {
    name: "a paragraph made a heading (whole block)",
    calls: (ids) => [{ tool: "setBlockType", input: { blockId: ids[5], type: "heading-2" } }],
    markup: ["{~~Last part with ++ and {braces}.~>## Last part with ++ and {braces}.~~}"],
  },
  {
    name: "a list made a numbered list (whole block)",
    calls: (ids) => [{ tool: "setBlockType", input: { blockId: ids[4], type: "number-list" } }],
    markup: ["{~~- one\n- two~>1. one\n2. two~~}"],
  },
  {
    name: "a list, a heading and a quote inserted, their syntax outside the markup",
    calls: (ids) => [
      {
        tool: "insertBlocks",
        input: {
          markdown: "## Next\n\n> Quoted\n\n1. first\n2. second",
          position: { at: "after", blockId: ids[1] },
        },
      },
    ],
    markup: ["## {++Next++}\n\n> {++Quoted++}\n\n1. {++first++}\n2. {++second++}"],
  },
  {
    name: "a table and a rule inserted, each row marked",
    calls: () => [
      {
        tool: "insertTable",
        input: {
          rows: [
            ["A", "B"],
            ["1", "2"],
          ],
          position: { at: "end" },
        },
      },
      { tool: "insertBlocks", input: { markdown: "---", position: { at: "start" } } },
    ],
    markup: ["{++---++}", "{++| A | B |++}\n{++| - | - |++}\n{++| 1 | 2 |++}"],
  },
  {
    name: "a list deleted",
    calls: (ids) => [{ tool: "deleteBlocks", input: { blockIds: [ids[4]] } }],
    markup: ["- {--one--}\n- {--two--}"],
  },
  {
    name: "text holding CriticMarkup delimiters inserted",
    calls: () => [
      {
        tool: "insertBlocks",
        input: {
          markdown: "Text with {++ a ++} and {-- b --} and {~~ c ~> d ~~} and {>> e <<}.",
          position: { at: "start" },
        },
      },
    ],
    // Inside an insertion only its closer is escaped; outside markup only the openers.
    markup: [
      "{++Text with {++ a ++\\} and {-- b --} and {\\~\\~ c \\~> d \\~\\~} and {>> e <<}.++}",
      "Notes: \\{++ literal ++} and \\{>> too <<}.",
    ],
  },
  {
    name: "text beside braces and ++ replaced",
    calls: () => [{ tool: "replaceText", input: { search: "++ and {braces}", replace: "-- and {{curly}}" } }],
    markup: ["Last part with {~~++~>--~~} and {{~~braces~>{curly}~~}}."],
  },
];

describe("CriticMarkup export and import round-trip every kind of suggestion", () => {
  for (const { name, calls, markup } of CASES) {
    it(name, () => {
      const editor = createDocumentEditor({ markdown: DOCUMENT });
      for (const call of calls(blockIds(editor)))
        expect(runToolAsSuggestionNow(editor, call.tool, call.input, AGENT)).toMatchObject({ ok: true });
      expect(hasPendingSuggestions(editor)).toBe(true);
      const { critic, back } = roundTrip(editor);
      for (const expected of markup) expect(critic).toContain(expected);
      // Outside the suggestions the file is the plain export.
      expect(critic.split("\n\n")[0]).toMatch(/^# |\{/);
      const accepted = exportMarkdownView(editor, "accepted");
      const rejected = exportMarkdownView(editor, "rejected");
      expect(decided(back, "accept")).toBe(accepted);
      expect(decided(editor, "reject")).toBe(rejected);
      expect(rejected).toBe(exportMarkdown(createDocumentEditor({ markdown: DOCUMENT })));
    });
  }

  it("round-trips every case applied to one document", () => {
    const editor = createDocumentEditor({ markdown: DOCUMENT });
    for (const { calls } of CASES.filter((entry) => !entry.name.includes("deleted"))) {
      // Later calls address the blocks as the run sees them (every pending suggestion accepted).
      const ids = blockIds(createDocumentEditor({ markdown: exportMarkdownView(editor, "accepted") }));
      for (const call of calls(ids)) runToolAsSuggestionNow(editor, call.tool, call.input, AGENT);
    }
    expect(listSuggestions(editor).length).toBeGreaterThan(5);
    roundTrip(editor);
  });

  it("gives the plain export for a document without suggestions, in every view", () => {
    const editor = createDocumentEditor({ markdown: DOCUMENT });
    expect(hasPendingSuggestions(editor)).toBe(false);
    for (const view of ["accepted", "rejected", undefined] as const)
      expect(exportMarkdownView(editor, view)).toBe(exportMarkdown(editor));
    // In CriticMarkup, text that reads as markup is escaped (a Markdown escape: it reads the same).
    const critic = exportMarkdownView(editor, "criticmarkup");
    expect(critic).toBe(exportMarkdown(editor).replaceAll("{++", "\\{++").replaceAll("{>>", "\\{>>"));
    const { back } = roundTrip(editor);
    expect(exportMarkdown(back)).toBe(exportMarkdown(editor));
    expect(listSuggestions(back)).toEqual([]);
  });

  it("refuses to export a delimiter in code, which no escape reaches", () => {
    const editor = createDocumentEditor({ markdown: "Intro." });
    runToolAsSuggestionNow(
      editor,
      "insertBlocks",
      { markdown: "```\ni++}\n```", position: { at: "end" } },
      AGENT,
    );
    expect(() => exportMarkdownView(editor, "criticmarkup")).toThrow(CriticMarkupError);
    expect(exportMarkdownView(editor, "accepted")).toBe("Intro.\n\n```\ni++}\n```");
  });
});
