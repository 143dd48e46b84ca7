import {
  $findBlockById,
  $getBlockId,
  createDocumentEditor,
  diffSnapshots,
  hasChanges,
  snapshotBlocks,
} from "@coauthor/tools";
import {
  $createParagraphNode,
  $createTextNode,
  $getRoot,
  $isElementNode,
  $isTextNode,
  type LexicalEditor,
} from "lexical";
import { describe, expect, it } from "vitest";
import { revertRunChanges } from "./revert-run";

const texts = (editor: LexicalEditor) =>
  editor.getEditorState().read(() =>
    $getRoot()
      .getChildren()
      .map((block) => block.getTextContent()),
  );

const ids = (editor: LexicalEditor) =>
  editor.getEditorState().read(() =>
    $getRoot()
      .getChildren()
      .map((block) => $getBlockId(block) ?? ""),
  );

/** Rewrites the text of block `id` in place (the block keeps its node, so its id). */
function $retext(id: string | undefined, text: string): void {
  const block = $findBlockById(id ?? "");
  const first = $isElementNode(block) ? block.getFirstDescendant() : null;
  if (!$isTextNode(first)) throw new Error(`no text in block ${id}`);
  first.setTextContent(text);
}

function update(editor: LexicalEditor, fn: () => void): void {
  editor.update(fn, { discrete: true });
}

describe("revertRunChanges", () => {
  it("removes inserted blocks, restores changed and deleted ones, and puts moved ones back", () => {
    const editor = createDocumentEditor({ markdown: "A\n\nB\n\nC\n\nD" });
    const [a, b, c, d] = ids(editor);
    const before = snapshotBlocks(editor.getEditorState());
    update(editor, () => {
      $findBlockById(b ?? "")?.remove();
      $retext(c, "C changed");
      $findBlockById(a ?? "")?.insertAfter($createParagraphNode().append($createTextNode("new")));
      const dBlock = $findBlockById(d ?? "");
      if (dBlock) $getRoot().getFirstChild()?.insertBefore(dBlock);
    });
    const changes = diffSnapshots(before, snapshotBlocks(editor.getEditorState()));
    expect(hasChanges(changes)).toBe(true);
    expect(changes.deleted).toEqual([b]);
    expect(changes.inserted).toHaveLength(1);
    expect(changes.changed).toEqual([c]);
    expect(texts(editor)).toEqual(["D", "A", "new", "C changed"]);

    revertRunChanges(editor, changes);
    expect(texts(editor)).toEqual(["A", "B", "C", "D"]);
    expect(ids(editor)).toEqual([a, b, c, d]);
  });

  it("leaves blocks the writer edited after the run as the writer made them", () => {
    const editor = createDocumentEditor({ markdown: "Mine\n\nTheirs" });
    const [mine, theirs] = ids(editor);
    const before = snapshotBlocks(editor.getEditorState());
    update(editor, () => {
      $retext(theirs, "Theirs, by the agent");
      $getRoot().append($createParagraphNode().append($createTextNode("agent")));
    });
    const changes = diffSnapshots(before, snapshotBlocks(editor.getEditorState()));
    // The writer edits the block the run changed, and types in their own block.
    update(editor, () => {
      $retext(theirs, "Theirs, by the agent, fixed");
      $retext(mine, "Mine, more");
    });

    expect(revertRunChanges(editor, changes)).toEqual({ reverted: 1, keptByWriter: 1 });
    expect(texts(editor)).toEqual(["Mine, more", "Theirs, by the agent, fixed"]);
  });
});
