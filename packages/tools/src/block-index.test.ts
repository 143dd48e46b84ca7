import { createEmptyHistoryState, registerHistory } from "@lexical/history";
import {
  $createParagraphNode,
  $createTextNode,
  $getRoot,
  type LexicalEditor,
  PASTE_TAG,
  REDO_COMMAND,
  UNDO_COMMAND,
} from "lexical";
import { describe, expect, it } from "vitest";
import { applyAgentEdit } from "./agent-edit.ts";
import { $getBlockId, $setBlockId } from "./block-id.ts";
import { $findBlockById } from "./block-index.ts";
import { createDocumentEditor } from "./document-editor.ts";
import { runEditorTool } from "./editor-tools.ts";
import { blockIds, itemIds } from "./tool-cases.ts";

function textOf(editor: LexicalEditor, id: string): string | null {
  return editor.read(() => $findBlockById(id)?.getTextContent() ?? null);
}

/** Appends a paragraph carrying `id`, as a paste (or a remote collaborator's edit) would. */
function appendWithId(editor: LexicalEditor, id: string, text: string, tag?: string): void {
  editor.update(
    () => $getRoot().append($setBlockId($createParagraphNode().append($createTextNode(text)), id)),
    {
      discrete: true,
      tag,
    },
  );
}

function withHistory(markdown: string): LexicalEditor {
  const editor = createDocumentEditor({ markdown });
  registerHistory(editor, createEmptyHistoryState(), 0);
  return editor;
}

describe("block id index", () => {
  it("gives every list item its own id, nested ones included", () => {
    const editor = createDocumentEditor({ markdown: "- a\n    - b\n- c" });
    const items = itemIds(editor);
    expect(items).toHaveLength(3);
    expect(new Set(items).size).toBe(3);
    expect(items.map((id) => textOf(editor, id))).toEqual(["a", "b", "c"]);
  });

  it("stays correct through undo and redo of inserts and deletes", async () => {
    const editor = withHistory("One\n\nTwo");
    const [one] = blockIds(editor);
    // History records from its first update on; this edit gives it a state to return to.
    await runEditorTool(editor, "formatText", { blockId: one, text: "One", add: ["bold"] });
    const inserted = await runEditorTool(editor, "insertBlocks", {
      markdown: "Three",
      position: { at: "end" },
    });
    const [three = ""] = inserted.ok && "blockIds" in inserted ? inserted.blockIds : [];
    await runEditorTool(editor, "deleteBlocks", { blockIds: [one] });
    expect(textOf(editor, one ?? "")).toBeNull();
    editor.dispatchCommand(UNDO_COMMAND, undefined);
    expect(textOf(editor, one ?? "")).toBe("One");
    editor.dispatchCommand(UNDO_COMMAND, undefined);
    expect(textOf(editor, three)).toBeNull();
    editor.dispatchCommand(REDO_COMMAND, undefined);
    expect(textOf(editor, three)).toBe("Three");
    expect(
      await runEditorTool(editor, "replaceText", { search: "Three", replace: "3", blockId: three }),
    ).toMatchObject({ ok: true });
  });

  it("finds blocks after setEditorState swaps in another document", () => {
    const source = createDocumentEditor({ markdown: "Alpha\n\nBeta" });
    const editor = createDocumentEditor({ markdown: "Other" });
    const [old] = blockIds(editor);
    editor.setEditorState(source.getEditorState());
    const [alpha, beta] = blockIds(source);
    expect(textOf(editor, alpha ?? "")).toBe("Alpha");
    expect(textOf(editor, beta ?? "")).toBe("Beta");
    expect(textOf(editor, old ?? "")).toBeNull();
  });

  it("gives pasted blocks fresh ids, even when their id is unused here", () => {
    const editor = createDocumentEditor({ markdown: "One" });
    const [one = ""] = blockIds(editor);
    appendWithId(editor, one, "copy of one", PASTE_TAG);
    appendWithId(editor, "bunused00", "from elsewhere", PASTE_TAG);
    const ids = blockIds(editor);
    expect(ids[0]).toBe(one);
    expect(ids.slice(1)).not.toContain(one);
    expect(ids.slice(1)).not.toContain("bunused00");
    expect(new Set(ids).size).toBe(3);
  });

  it("keeps the id of a block arriving from another client unless it is taken", () => {
    const editor = createDocumentEditor({ markdown: "One" });
    const [one = ""] = blockIds(editor);
    appendWithId(editor, "bremote00", "remote");
    appendWithId(editor, one, "duplicate");
    const ids = blockIds(editor);
    expect(ids[1]).toBe("bremote00");
    expect(textOf(editor, "bremote00")).toBe("remote");
    expect(ids[2]).not.toBe(one);
    expect(textOf(editor, one)).toBe("One");
  });

  it("is not fooled by ids claimed in an update that was rolled back", () => {
    const editor = createDocumentEditor({ markdown: "One" });
    const [one = ""] = blockIds(editor);
    expect(() =>
      applyAgentEdit(editor, () => {
        const copy = $createParagraphNode().append($createTextNode("moved"));
        $findBlockById(one)?.replace(copy);
        $setBlockId(copy, one);
        throw new Error("abort");
      }),
    ).toThrow("abort");
    expect(textOf(editor, one)).toBe("One");
    editor.read(() => expect($getBlockId($getRoot().getFirstChildOrThrow())).toBe(one));
  });
});
