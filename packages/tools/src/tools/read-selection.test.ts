import { $isListNode } from "@lexical/list";
import { $getRoot, $isElementNode, $isTextNode, type LexicalEditor } from "lexical";
import { describe, expect, it } from "vitest";
import { createDocumentEditor } from "../document-editor.ts";
import { runEditorTool } from "../editor-tools.ts";
import { exportMarkdown } from "../markdown.ts";
import { blockIds, DOC, itemIds } from "../tool-cases.ts";

/** Selects from `from` to `to` in the last text node of top-level block `index` (inside its last item for lists). */
function select(editor: LexicalEditor, index: number, from: number, to: number): void {
  editor.update(
    () => {
      let block = $getRoot().getChildAtIndex(index);
      if ($isListNode(block)) block = block.getFirstChild();
      const text = $isElementNode(block) ? block.getLastDescendant() : null;
      if (!$isTextNode(text)) throw new Error("no text to select");
      text.select(from, to);
    },
    { discrete: true },
  );
}

describe("readSelection", () => {
  it("returns null when the editor has no selection", async () => {
    const editor = createDocumentEditor({ markdown: DOC });
    expect(await runEditorTool(editor, "readSelection", {})).toEqual({ ok: true, selection: null });
  });

  it("returns the selected text, the block ids and both ends as block offsets", async () => {
    const editor = createDocumentEditor({ markdown: DOC });
    const ids = blockIds(editor);
    // Last text node of "First paragraph with **bold** text." is " text." starting at 25.
    select(editor, 1, 1, 5);
    expect(await runEditorTool(editor, "readSelection", {})).toEqual({
      ok: true,
      selection: {
        collapsed: false,
        text: "text",
        blockIds: [ids[1]],
        anchor: { blockId: ids[1], offset: 26 },
        focus: { blockId: ids[1], offset: 30 },
      },
    });
  });

  it("addresses a selection inside a list by the item's id", async () => {
    const editor = createDocumentEditor({ markdown: DOC });
    select(editor, 2, 0, 0);
    const result = await runEditorTool(editor, "readSelection", {});
    expect(result).toMatchObject({
      ok: true,
      selection: { collapsed: true, anchor: { blockId: itemIds(editor)[0], offset: 0 } },
    });
  });

  it("lets insertBlocks write after the block holding the selection", async () => {
    const editor = createDocumentEditor({ markdown: DOC });
    select(editor, 0, 0, 2);
    const result = await runEditorTool(editor, "insertBlocks", {
      markdown: "Inserted",
      position: { at: "selection" },
    });
    expect(result).toMatchObject({ ok: true });
    expect(exportMarkdown(editor)).toBe(DOC.replace("# Title", "# Title\n\nInserted"));
  });
});
