import { createHeadlessEditor } from "@lexical/headless";
import {
  $createParagraphNode,
  $createTextNode,
  $getRoot,
  $getSelection,
  $isElementNode,
  $isRangeSelection,
  $isTextNode,
  type LexicalEditor,
} from "lexical";
import { describe, expect, it } from "vitest";
import { $getBlockId, createBlockId } from "./block-id.ts";
import { $findBlockById, registerBlockIds } from "./block-index.ts";
import { createDocumentEditor } from "./document-editor.ts";
import { editorNodes } from "./editor-nodes.ts";
import { exportMarkdown } from "./markdown.ts";

function blockIds(editor: LexicalEditor): (string | null)[] {
  return editor.read(() => $getRoot().getChildren().map($getBlockId));
}

/** Puts the caret at `offset` in the first text node of block `index` and presses Enter. */
function pressEnter(editor: LexicalEditor, index: number, offset: number): void {
  editor.update(
    () => {
      const block = $getRoot().getChildAtIndex(index);
      const text = $isElementNode(block) ? block.getFirstDescendant() : null;
      if (!$isTextNode(text)) throw new Error("block has no text");
      text.select(offset, offset);
      const selection = $getSelection();
      if (!$isRangeSelection(selection)) throw new Error("no range selection");
      selection.insertParagraph();
    },
    { discrete: true },
  );
}

describe("block ids", () => {
  it("looks like b followed by 8 base-36 characters", () => {
    for (let i = 0; i < 50; i++) expect(createBlockId()).toMatch(/^b[0-9a-z]{8}$/);
  });

  it("gives every block imported from Markdown a unique id", () => {
    const editor = createDocumentEditor({ markdown: "# Title\n\nOne\n\n- a\n- b\n\n> quote" });
    const ids = blockIds(editor);
    expect(ids).toHaveLength(4);
    expect(ids.every((id) => id !== null && /^b[0-9a-z]{8}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(4);
  });

  it("survives a JSON export and import into a new editor", () => {
    const editor = createDocumentEditor({ markdown: "# Title\n\nOne\n\nTwo" });
    const json = JSON.stringify(editor.getEditorState().toJSON());
    expect(json).toContain('"blockId"');
    const reloaded = createDocumentEditor({ state: json });
    expect(blockIds(reloaded)).toEqual(blockIds(editor));
    expect(exportMarkdown(reloaded)).toBe(exportMarkdown(editor));
  });

  it("assigns ids to blocks loaded from JSON that has none, and repairs duplicates", () => {
    const plain = createHeadlessEditor({
      nodes: [...editorNodes],
      onError: (e) => {
        throw e;
      },
    });
    plain.update(
      () => {
        $getRoot().append(
          $createParagraphNode().append($createTextNode("a")),
          $createParagraphNode().append($createTextNode("b")),
        );
      },
      { discrete: true },
    );
    const withoutIds = plain.getEditorState().toJSON();
    expect(JSON.stringify(withoutIds)).not.toContain("blockId");
    const loaded = createDocumentEditor({ state: withoutIds });
    const ids = blockIds(loaded);
    expect(ids.every((id) => id !== null)).toBe(true);
    expect(new Set(ids).size).toBe(2);

    const duplicated = JSON.parse(JSON.stringify(loaded.getEditorState().toJSON()));
    duplicated.root.children[1].$ = { ...duplicated.root.children[0].$ };
    const repaired = blockIds(createDocumentEditor({ state: duplicated }));
    expect(repaired[0]).toBe(ids[0]);
    expect(repaired[1]).not.toBe(ids[0]);
    expect(repaired[1]).not.toBeNull();
  });

  it("repairs ids after setEditorState on an editor that is already registered", async () => {
    const source = createHeadlessEditor({
      nodes: [...editorNodes],
      onError: (e) => {
        throw e;
      },
    });
    source.update(() => $getRoot().append($createParagraphNode().append($createTextNode("x"))), {
      discrete: true,
    });
    const editor = createDocumentEditor({ markdown: "start" });
    editor.setEditorState(editor.parseEditorState(source.getEditorState().toJSON()));
    // The repair is a follow-up update; reading flushes it.
    await Promise.resolve();
    expect(blockIds(editor)[0]).toMatch(/^b[0-9a-z]{8}$/);
  });

  it("gives ids to blocks that existed before registerBlockIds was called", () => {
    const editor = createHeadlessEditor({
      nodes: [...editorNodes],
      onError: (e) => {
        throw e;
      },
    });
    editor.update(() => $getRoot().append($createParagraphNode().append($createTextNode("x"))), {
      discrete: true,
    });
    expect(blockIds(editor)).toEqual([null]);
    const unregister = registerBlockIds(editor);
    expect(blockIds(editor)[0]).toMatch(/^b[0-9a-z]{8}$/);
    unregister();
  });

  it.each([
    ["in the middle", 3],
    ["at the end", 6],
    ["at the start", 0],
  ])("gives the new block a fresh id when Enter splits a block %s", (_where, offset) => {
    const editor = createDocumentEditor({ markdown: "Before\n\nSplit me\n\nAfter" });
    const [before, split, after] = blockIds(editor);
    pressEnter(editor, 1, offset);
    const ids = blockIds(editor);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    expect(ids[0]).toBe(before);
    expect(ids[3]).toBe(after);
    expect(ids).toContain(split);
    expect(ids.every((id) => id !== null)).toBe(true);
  });

  it("keeps the id on the part of a split block that holds its start text", () => {
    const editor = createDocumentEditor({ markdown: "Hello world" });
    const [id] = blockIds(editor);
    pressEnter(editor, 0, 5);
    editor.read(() => {
      expect($getRoot().getChildAtIndex(0)?.getTextContent()).toBe("Hello");
      expect($getBlockId($getRoot().getChildAtIndex(0) ?? $getRoot())).toBe(id);
    });
  });

  it("finds a block by id and returns null for an unknown id", () => {
    const editor = createDocumentEditor({ markdown: "One\n\nTwo" });
    const [, second] = blockIds(editor);
    editor.read(() => {
      expect($findBlockById(second ?? "")?.getTextContent()).toBe("Two");
      expect($findBlockById("bnope0000")).toBeNull();
    });
  });
});
