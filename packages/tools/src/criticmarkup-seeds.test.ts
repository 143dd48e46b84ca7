import { readdirSync, readFileSync } from "node:fs";
import { $isCodeNode } from "@lexical/code";
import { $isListNode } from "@lexical/list";
import { $isHeadingNode, $isQuoteNode } from "@lexical/rich-text";
import { $getRoot, $isParagraphNode, type LexicalEditor } from "lexical";
import { describe, expect, it } from "vitest";
import { $getBlockId } from "./block-id.ts";
import { decided, roundTrip } from "./criticmarkup.fixtures.ts";
import { createDocumentEditor } from "./document-editor.ts";
import { exportMarkdown } from "./markdown.ts";
import { exportMarkdownView } from "./markdown-views.ts";
import { runToolAsSuggestionNow } from "./suggest-tool-calls.ts";
import type { SuggestionAuthor } from "./suggestions.ts";

// Real material: the documents Coauthor was made from (fixtures/seeds), each given suggestions of
// every kind the tools make — words replaced in paragraphs, a heading, a quote and code, a block
// retyped, blocks inserted and deleted, with and without reasons — then written as CriticMarkup,
// read back, and written again.

const SEEDS = new URL("../fixtures/seeds/", import.meta.url);
const seedFiles = readdirSync(SEEDS).filter((name) => /^\d+_.*\.md$/.test(name));
const AGENT: SuggestionAuthor = { authorId: "alice", authorName: "Coauthor for Alice", runId: "run-1" };

type Target = { id: string; word: string };

/** The blocks of each kind to change, each with a word of its own to replace. */
function targets(editor: LexicalEditor) {
  return editor.read(() => {
    const found = {
      paragraphs: [] as Target[],
      headings: [] as Target[],
      quotes: [] as Target[],
      code: [] as Target[],
      lists: [] as string[],
      beforeNoList: [] as Target[],
      deletable: [] as Target[],
    };
    for (const node of $getRoot().getChildren()) {
      const id = $getBlockId(node);
      if (id === null) continue;
      if ($isListNode(node)) {
        found.lists.push(id);
        continue;
      }
      const word = node.getTextContent().match(/\b[A-Za-z]{4,}\b/)?.[0];
      if (word === undefined) continue;
      if ($isParagraphNode(node)) {
        found.paragraphs.push({ id, word });
        // The editor joins a list to a list of its kind right after it, suggestion or not (see
        // docs/suggestions.md): the inserted list goes where no list follows.
        if (!$isListNode(node.getNextSibling())) found.beforeNoList.push({ id, word });
        // Nor may a deletion leave two lists side by side.
        if (!$isListNode(node.getNextSibling()) || !$isListNode(node.getPreviousSibling()))
          found.deletable.push({ id, word });
      } else if ($isHeadingNode(node)) {
        found.headings.push({ id, word });
        if (!$isListNode(node.getNextSibling())) found.beforeNoList.push({ id, word });
      } else if ($isQuoteNode(node)) found.quotes.push({ id, word });
      else if ($isCodeNode(node)) found.code.push({ id, word });
    }
    return found;
  });
}

function suggest(editor: LexicalEditor, tool: string, input: Record<string, unknown>): void {
  expect(
    runToolAsSuggestionNow(editor, tool, input, AGENT),
    `${tool} ${JSON.stringify(input)}`,
  ).toMatchObject({
    ok: true,
  });
}

const replaceWord = (editor: LexicalEditor, target: Target | undefined, reason?: string) => {
  if (target === undefined) return;
  const replace = `${target.word.toUpperCase()} {x} ~> ++`;
  suggest(editor, "replaceText", {
    search: target.word,
    replace,
    blockId: target.id,
    ...(reason ? { reason } : {}),
  });
};

describe("CriticMarkup on the seed documents", () => {
  it("has the seed documents", () => {
    expect(seedFiles.length).toBeGreaterThanOrEqual(5);
  });

  for (const file of seedFiles) {
    it(`${file}: suggestions of every kind round-trip through CriticMarkup`, () => {
      const markdown = readFileSync(new URL(file, SEEDS), "utf8");
      // The document as an editor holds it once its state is loaded again (as the scratch copy of a
      // suggesting run loads it): a loose list read from Markdown comes back tight then, which a run
      // would otherwise propose as a change of its own (docs/suggestions.md, "Not yet").
      const editor = createDocumentEditor({
        state: createDocumentEditor({ markdown }).getEditorState().toJSON(),
      });
      const original = exportMarkdown(editor);
      const found = targets(editor);
      const [first, second, third] = found.paragraphs;
      const anchor = found.beforeNoList.at(-1);
      expect(anchor).toBeDefined();
      replaceWord(editor, first, "Stresses it {>> <<} ~> here.");
      replaceWord(editor, second);
      replaceWord(editor, found.headings[1], "Names the part.");
      replaceWord(editor, found.quotes[0]);
      replaceWord(editor, found.code[0], "Code too.");
      if (third) suggest(editor, "setBlockType", { blockId: third.id, type: "quote" });
      const deleted = found.deletable.find((target) => ![first, second, third, anchor].includes(target));
      if (deleted) suggest(editor, "deleteBlocks", { blockIds: [deleted.id], reason: "Repeats the intro." });
      if (found.lists[0]) suggest(editor, "deleteBlocks", { blockIds: [found.lists[0]] });
      suggest(editor, "insertBlocks", {
        markdown: "## Added {here}\n\nA new paragraph with {braces}, ~> and ++ in it.\n\n1. first\n2. second",
        position: { at: "after", blockId: anchor?.id },
        reason: "Adds context.",
      });
      const { critic, back } = roundTrip(editor);
      for (const markup of ["{++", "{--", "{~~", "{>>"]) expect(critic).toContain(markup);
      const accepted = exportMarkdownView(editor, "accepted");
      expect(accepted).not.toBe(original);
      expect(exportMarkdownView(editor, "rejected")).toBe(original);
      expect(decided(back, "reject")).toBe(original);
      expect(decided(editor, "accept")).toBe(accepted);
    });
  }
});
