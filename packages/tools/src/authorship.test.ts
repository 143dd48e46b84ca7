import { MAX_BLOCK_AUTHORS } from "@coauthor/types";
import { $getRoot } from "lexical";
import { describe, expect, it } from "vitest";
import { registerAuthorship, runToolNowAs } from "./authorship.ts";
import { $addBlockAuthor, $getBlockAuthors } from "./block-authors.ts";
import { exportMarkdownView } from "./markdown-views.ts";
import { runToolAsSuggestion } from "./suggest-tool-calls.ts";
import { $decideSuggestions, listSuggestions } from "./suggestions.ts";
import { exchange } from "./synced-copies.ts";
import { blockIds } from "./tool-cases.ts";
import { type BoundDocumentEditor, bindDocumentEditor, yjsUpdateFromMarkdown } from "./yjs-document.ts";

// Provenance: who wrote each block, kept in the shared document — the agent's direct edits name
// its run, accepting a suggestion names its author, a person editing a named block is added.

const AGENT = { authorId: "alice", authorName: "Coauthor for Alice", runId: "run-1" };
const BOB = { authorId: "bob", authorName: "Bob" };

function copies(markdown: string): { tab: BoundDocumentEditor; bob: BoundDocumentEditor } {
  const seed = yjsUpdateFromMarkdown(markdown);
  return { tab: bindDocumentEditor(seed), bob: bindDocumentEditor(seed) };
}

/** Each block's text with the names of its authors, in `copy`. */
function authorship(copy: BoundDocumentEditor): Array<[string, string[]]> {
  return copy.editor.read(() =>
    $getRoot()
      .getChildren()
      .map((block) => [block.getTextContent(), $getBlockAuthors(block).map((author) => author.authorName)]),
  );
}

/** Bob types `text` at the end of block `index` in his copy, as a keystroke would. */
function bobTypes(bob: BoundDocumentEditor, index: number, text: string): void {
  bob.editor.update(
    () => {
      const block = $getRoot().getChildAtIndex(index);
      block?.selectEnd().insertText(text);
    },
    { discrete: true },
  );
}

describe("provenance", () => {
  it("names the run in the blocks its direct edits write, in every copy", () => {
    const { tab, bob } = copies("Alpha.\n\nBeta.");
    const [, beta] = blockIds(tab.editor);
    runToolNowAs(tab.editor, "insertBlocks", { markdown: "Gamma.", position: { at: "end" } }, AGENT);
    runToolNowAs(tab.editor, "replaceText", { blockId: beta, search: "Beta", replace: "Bêta" }, AGENT);
    exchange(tab, bob);
    for (const copy of [tab, bob])
      expect(authorship(copy)).toEqual([
        ["Alpha.", []],
        ["Bêta.", ["Coauthor for Alice"]],
        ["Gamma.", ["Coauthor for Alice"]],
      ]);
  });

  it("adds a person after the agent once they edit its block, and names nobody for people's own text", () => {
    const { tab, bob } = copies("Alpha.\n\nBeta.");
    registerAuthorship(bob.editor, BOB);
    runToolNowAs(tab.editor, "insertBlocks", { markdown: "Gamma.", position: { at: "end" } }, AGENT);
    exchange(tab, bob);
    // The agent's edit arriving in Bob's copy is not his writing.
    expect(authorship(bob)[2]).toEqual(["Gamma.", ["Coauthor for Alice"]]);
    bobTypes(bob, 2, " More.");
    bobTypes(bob, 2, " Again.");
    bobTypes(bob, 0, " Plain.");
    exchange(tab, bob);
    for (const copy of [tab, bob])
      expect(authorship(copy)).toEqual([
        ["Alpha. Plain.", []],
        ["Beta.", []],
        ["Gamma. More. Again.", ["Coauthor for Alice", "Bob"]],
      ]);
  });

  it("names a suggestion's author when it is accepted, and nobody while pending or once rejected", async () => {
    const { tab, bob } = copies("Alpha.");
    await runToolAsSuggestion(
      tab.editor,
      "insertBlocks",
      { markdown: "Kept.", position: { at: "end" } },
      AGENT,
    );
    await runToolAsSuggestion(
      tab.editor,
      "insertBlocks",
      { markdown: "Dropped.", position: { at: "end" } },
      AGENT,
    );
    exchange(tab, bob);
    expect(authorship(bob).map(([, names]) => names)).toEqual([[], [], []]);
    const [kept, dropped] = listSuggestions(bob.editor);
    bob.editor.update(() => void $decideSuggestions(new Set([kept?.id ?? ""]), "accept"), { discrete: true });
    bob.editor.update(() => void $decideSuggestions(new Set([dropped?.id ?? ""]), "reject"), {
      discrete: true,
    });
    exchange(tab, bob);
    for (const copy of [tab, bob])
      expect(authorship(copy)).toEqual([
        ["Alpha.", []],
        ["Kept.", ["Coauthor for Alice"]],
      ]);
  });

  it("exports who wrote each named block as an HTML comment before it, pending suggestions as if accepted", async () => {
    const { tab } = copies("People's.");
    runToolNowAs(tab.editor, "insertBlocks", { markdown: "- agent's item", position: { at: "end" } }, AGENT);
    await runToolAsSuggestion(
      tab.editor,
      "insertBlocks",
      { markdown: "Pending.", position: { at: "end" } },
      AGENT,
    );
    registerAuthorship(tab.editor, { authorId: "eve", authorName: "Eve --> <b>" });
    tab.editor.update(() => $getRoot().getChildAtIndex(1)?.selectEnd().insertText(" edited"), {
      discrete: true,
    });
    expect(exportMarkdownView(tab.editor, "authorship")).toBe(
      "People's.\n\n<!-- Written by Coauthor for Alice (run run-1), then Eve - -> <b> -->\n- agent's item edited\n\nPending.",
    );
  });

  it(`remembers the first author and the latest others, at most ${MAX_BLOCK_AUTHORS}`, () => {
    const { tab } = copies("Alpha.");
    tab.editor.update(
      () => {
        const block = $getRoot().getFirstChildOrThrow();
        for (let i = 0; i < MAX_BLOCK_AUTHORS + 3; i++)
          $addBlockAuthor(block, { authorId: `writer-${i}`, authorName: `Writer ${i}` });
        // The same author again, last already: nothing changes.
        $addBlockAuthor(block, { authorId: `writer-${MAX_BLOCK_AUTHORS + 2}`, authorName: "Writer again" });
      },
      { discrete: true },
    );
    const [[, names] = ["", []]] = authorship(tab);
    expect(names).toHaveLength(MAX_BLOCK_AUTHORS);
    expect(names[0]).toBe("Writer 0");
    expect(names.at(-1)).toBe(`Writer ${MAX_BLOCK_AUTHORS + 2}`);
  });
});
