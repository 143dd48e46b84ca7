import { $createHeadingNode } from "@lexical/rich-text";
import { $setBlocksType } from "@lexical/selection";
import {
  $createParagraphNode,
  $createTextNode,
  $getRoot,
  $getSelection,
  $isRangeSelection,
  type ElementNode,
  HISTORIC_TAG,
  type LexicalEditor,
  type TextNode,
} from "lexical";
import { describe, expect, it } from "vitest";
import { exportMarkdown } from "./markdown.ts";
import { registerSuggestingMode } from "./suggesting-mode.ts";
import { $decideSuggestions, listSuggestions, type SuggestionAuthor } from "./suggestions.ts";
import { exchange } from "./synced-copies.ts";
import { blockIds } from "./tool-cases.ts";
import {
  type BoundDocumentEditor,
  bindDocumentEditor,
  flush,
  yjsUpdateFromMarkdown,
} from "./yjs-document.ts";

// A writer in Suggesting mode edits one copy of a document synced with another: every kind of
// edit lands as suggestions authored by them, in both copies; accepting gives the edit, rejecting
// gives the document as it was, with its blocks' ids.

const DOCUMENT = "# Plan\n\nFirst part with **bold**.\n\nSecond part.\n\nLast part.";
const BOB: SuggestionAuthor = { authorId: "bob", authorName: "Bob" };
const ALICE: SuggestionAuthor = { authorId: "alice", authorName: "Alice" };

function block(index: number): ElementNode {
  return $getRoot().getChildAtIndex(index) as ElementNode;
}

/** A person's edit: one update with no tag, as a keystroke or a toolbar button makes. */
function edit(editor: LexicalEditor, $fn: () => void): void {
  editor.update($fn, { discrete: true });
  flush(editor);
}

const EDITS: Array<{ name: string; $edit: () => void }> = [
  { name: "typing at the end of a paragraph", $edit: () => block(2).selectEnd().insertText(" More.") },
  {
    name: "Enter in the middle of a paragraph",
    $edit: () => {
      const selection = (block(2).getFirstChild() as TextNode).select(7, 7);
      selection.insertParagraph();
    },
  },
  {
    name: "Backspace at the start of a paragraph (two blocks merged)",
    $edit: () => {
      block(3).selectStart();
      const selection = $getSelection();
      if ($isRangeSelection(selection)) selection.deleteCharacter(true);
    },
  },
  {
    name: "a selection across blocks deleted",
    $edit: () => {
      const selection = block(1).select(5, 5);
      selection.focus.set(block(3).getFirstDescendant()?.getKey() ?? "", 4, "text");
      selection.removeText();
    },
  },
  { name: "a block removed", $edit: () => block(2).remove() },
  {
    name: "a new block inserted",
    $edit: () => block(1).insertAfter($createParagraphNode().append($createTextNode("Inserted."))),
  },
  {
    name: "bold applied to a word",
    $edit: () => {
      const selection = block(3).select(0, 4);
      selection.formatText("bold");
    },
  },
  {
    name: "a paragraph made a heading",
    $edit: () => {
      block(2).selectEnd();
      const selection = $getSelection();
      if (selection !== null) $setBlocksType(selection, () => $createHeadingNode("h2"));
    },
  },
];

/** Puts `copy` in Suggesting mode for `author` (the registration's own update committed first). */
function suggesting(
  copy: BoundDocumentEditor,
  author: SuggestionAuthor,
  onRefused?: (authorName: string) => void,
): () => void {
  const stop = registerSuggestingMode(copy.editor, author, {
    onRefused: (suggestion) => onRefused?.(suggestion.authorName),
  });
  flush(copy.editor);
  return stop;
}

function decideAll(copy: BoundDocumentEditor, decision: "accept" | "reject"): void {
  const ids = new Set(listSuggestions(copy.editor).map((suggestion) => suggestion.id));
  copy.editor.update(() => void $decideSuggestions(ids, decision), { discrete: true });
  flush(copy.editor);
}

describe("Suggesting mode: a person's edits become their suggestions", () => {
  for (const { name, $edit } of EDITS) {
    for (const decision of ["accept", "reject"] as const) {
      it(`${name}, ${decision}ed by a co-editor`, () => {
        const seed = yjsUpdateFromMarkdown(DOCUMENT);
        const bob = bindDocumentEditor(seed);
        const alice = bindDocumentEditor(seed);
        const direct = bindDocumentEditor(seed);
        const ids = blockIds(bob.editor);
        edit(direct.editor, $edit);
        expect(exportMarkdown(direct.editor)).not.toBe(DOCUMENT);

        const stop = suggesting(bob, BOB);
        edit(bob.editor, $edit);
        stop();
        exchange(bob, alice);
        const pending = listSuggestions(alice.editor);
        expect(pending.length).toBeGreaterThan(0);
        for (const suggestion of pending)
          expect(suggestion).toMatchObject({ authorId: "bob", authorName: "Bob" });

        decideAll(alice, decision);
        exchange(bob, alice);
        const expected = decision === "accept" ? exportMarkdown(direct.editor) : DOCUMENT;
        expect(exportMarkdown(alice.editor)).toBe(expected);
        expect(exportMarkdown(bob.editor)).toBe(expected);
        const finalIds = blockIds(alice.editor);
        expect(new Set(finalIds).size).toBe(finalIds.length);
        expect(blockIds(bob.editor)).toEqual(finalIds);
        if (decision === "reject") expect(finalIds).toEqual(ids);
      });
    }
  }

  it("typing on in your own pending insertion extends it: one suggestion", () => {
    const bob = bindDocumentEditor(yjsUpdateFromMarkdown(DOCUMENT));
    suggesting(bob, BOB);
    // Block 2 becomes the old version (marked deleted), block 3 the new one the writer types in.
    edit(bob.editor, () => block(2).selectEnd().insertText(" One."));
    for (const word of [" Two.", " Three."]) edit(bob.editor, () => block(3).selectEnd().insertText(word));
    const pending = listSuggestions(bob.editor);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ deleted: "Second part.", inserted: "Second part. One. Two. Three." });
  });

  it("typing into an empty document is an insertion, with nothing proposed as removed", () => {
    const bob = bindDocumentEditor(yjsUpdateFromMarkdown(""));
    suggesting(bob, BOB);
    edit(bob.editor, () => $getRoot().selectEnd().insertText("Hello"));
    expect(listSuggestions(bob.editor)).toMatchObject([{ inserted: "Hello", deleted: "" }]);
  });

  it("deleting all of your own pending insertion takes the suggestion away", () => {
    const bob = bindDocumentEditor(yjsUpdateFromMarkdown(DOCUMENT));
    suggesting(bob, BOB);
    edit(bob.editor, () => block(1).insertAfter($createParagraphNode().append($createTextNode("Oops."))));
    expect(listSuggestions(bob.editor)).toHaveLength(1);
    edit(bob.editor, () => block(2).remove());
    expect(listSuggestions(bob.editor)).toEqual([]);
    expect(exportMarkdown(bob.editor)).toBe(DOCUMENT);
  });

  it("changing your own pending deletion makes it a replacement, decided together", () => {
    const bob = bindDocumentEditor(yjsUpdateFromMarkdown(DOCUMENT));
    const refused: string[] = [];
    suggesting(bob, BOB, (name) => refused.push(name));
    edit(bob.editor, () => block(2).remove());
    const [removal] = listSuggestions(bob.editor);
    edit(bob.editor, () => block(2).selectEnd().insertText(" Kept."));
    const pending = listSuggestions(bob.editor);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({
      id: removal?.id,
      deleted: "Second part.",
      inserted: "Second part. Kept.",
    });
    // Its old half is what the replacement removes: changing it again is refused.
    expect(refused).toEqual([]);
    edit(bob.editor, () => block(2).selectEnd().insertText(" Again."));
    expect(refused).toEqual(["Bob"]);
    expect(listSuggestions(bob.editor)).toEqual(pending);
  });

  it("refuses a change to another author's pending suggestion, and says whose it is", () => {
    const seed = yjsUpdateFromMarkdown(DOCUMENT);
    const alice = bindDocumentEditor(seed);
    const bob = bindDocumentEditor(seed);
    suggesting(alice, ALICE);
    edit(alice.editor, () => block(2).selectEnd().insertText(" By Alice."));
    exchange(alice, bob);
    const theirs = listSuggestions(bob.editor);
    const refused: string[] = [];
    suggesting(bob, BOB, (name) => refused.push(name));
    // Block 3 is Alice's new version (block 2 her old one, marked deleted).
    edit(bob.editor, () => block(3).selectEnd().insertText(" By Bob."));
    edit(bob.editor, () => block(2).remove());
    expect(refused).toEqual(["Alice", "Alice"]);
    expect(listSuggestions(bob.editor)).toEqual(theirs);
    exchange(alice, bob);
    expect(exportMarkdown(alice.editor)).toBe(exportMarkdown(bob.editor));
  });

  it("leaves another copy's edits, undo / redo and decisions as they are", () => {
    const seed = yjsUpdateFromMarkdown(DOCUMENT);
    const alice = bindDocumentEditor(seed);
    const bob = bindDocumentEditor(seed);
    suggesting(bob, BOB);
    edit(alice.editor, () => block(2).selectEnd().insertText(" Alice's direct edit."));
    exchange(alice, bob);
    bob.editor.update(() => block(3).selectEnd().insertText(" Redone."), {
      discrete: true,
      tag: HISTORIC_TAG,
    });
    flush(bob.editor);
    expect(listSuggestions(bob.editor)).toEqual([]);
    expect(exportMarkdown(bob.editor)).toContain("Second part. Alice's direct edit.");
    expect(exportMarkdown(bob.editor)).toContain("Last part. Redone.");
  });
});
