import { createEmptyHistoryState, registerHistory } from "@lexical/history";
import { $getRoot, type LexicalEditor, UNDO_COMMAND } from "lexical";
import { describe, expect, it } from "vitest";
import { $topLevelIndex, $topLevelOrder } from "./block-order.ts";
import { createDocumentEditor } from "./document-editor.ts";
import { runEditorTool } from "./editor-tools.ts";
import { $documentMarkdown, exportMarkdown } from "./markdown.ts";
import { compactionThreshold } from "./node-map-compaction.ts";
import { blockIds } from "./tool-cases.ts";

/** Markdown written from scratch, bypassing every cache. */
function freshMarkdown(editor: LexicalEditor): string {
  return editor.read(() => $documentMarkdown());
}

function orderMatchesWalk(editor: LexicalEditor): boolean {
  return editor.read(() => {
    const children = $getRoot().getChildren();
    const order = $topLevelOrder();
    return (
      order.keys.length === children.length &&
      children.every((child, i) => order.keys[i] === child.getKey() && $topLevelIndex(child) === i)
    );
  });
}

async function ok(editor: LexicalEditor, tool: string, input: unknown): Promise<void> {
  const result = await runEditorTool(editor, tool, input);
  expect(result.ok, JSON.stringify(result)).toBe(true);
}

describe("block order cache", () => {
  it("stays in document order after inserts, moves and deletes", async () => {
    const editor = createDocumentEditor({ markdown: "A\n\nB\n\nC\n\nD" });
    const [a = "", b = "", c = "", d = ""] = blockIds(editor);
    expect(orderMatchesWalk(editor)).toBe(true);
    await ok(editor, "insertBlocks", { markdown: "X\n\nY", position: { at: "after", blockId: a } });
    expect(orderMatchesWalk(editor)).toBe(true);
    await ok(editor, "moveBlock", { blockId: d, position: { at: "before", blockId: b } });
    expect(orderMatchesWalk(editor)).toBe(true);
    await ok(editor, "deleteBlocks", { blockIds: [c, a] });
    expect(orderMatchesWalk(editor)).toBe(true);
    await ok(editor, "replaceText", { blockId: b, search: "B", replace: "Bee" });
    expect(orderMatchesWalk(editor)).toBe(true);
    expect(exportMarkdown(editor)).toBe("X\n\nY\n\nD\n\nBee");
  });

  it("gives readDocument the right page offsets after structural edits", async () => {
    const editor = createDocumentEditor({ markdown: "A\n\nB\n\nC" });
    const [a = "", , c = ""] = blockIds(editor);
    await ok(editor, "moveBlock", { blockId: c, position: { at: "before", blockId: a } });
    const page = await runEditorTool(editor, "readDocument", { fromBlockId: a, maxBlocks: 1 });
    expect(page).toMatchObject({ ok: true, nextFromBlock: 2, blocks: [{ id: a }] });
    const next = await runEditorTool(editor, "readDocument", { fromBlock: 2 });
    expect(next).toMatchObject({ ok: true, nextFromBlock: null, blocks: [{ markdown: "B" }] });
  });
});

describe("Markdown export cache", () => {
  it("re-renders a block after an edit inside it", async () => {
    const editor = createDocumentEditor({ markdown: "One **bold**\n\n- a\n- b" });
    const [one = ""] = blockIds(editor);
    expect(exportMarkdown(editor)).toBe("One **bold**\n\n- a\n- b");
    await ok(editor, "replaceText", { blockId: one, search: "One", replace: "Two" });
    expect(exportMarkdown(editor)).toBe("Two **bold**\n\n- a\n- b");
    await ok(editor, "formatText", { blockId: one, text: "Two", add: ["italic"] });
    expect(exportMarkdown(editor)).toBe(freshMarkdown(editor));
  });

  it("follows edits to nested list items and table cells", async () => {
    const editor = createDocumentEditor({ markdown: "- a\n    - b\n\n| H | I |\n| - | - |\n| 1 | 2 |" });
    const [, table = ""] = blockIds(editor);
    exportMarkdown(editor);
    await ok(editor, "updateTableCell", { blockId: table, row: 1, column: 1, text: "two" });
    await ok(editor, "replaceText", { search: "b", replace: "bee" });
    expect(exportMarkdown(editor)).toBe(freshMarkdown(editor));
    expect(exportMarkdown(editor)).toContain("| 1 | two |");
    expect(exportMarkdown(editor)).toContain("  - bee");
  });

  it("follows undo, which swaps in a whole earlier state", async () => {
    const editor = createDocumentEditor({ markdown: "Alpha\n\nBeta" });
    registerHistory(editor, createEmptyHistoryState(), 0);
    const [alpha = "", beta = ""] = blockIds(editor);
    // History records from its first update on; this edit gives it a state to return to.
    await ok(editor, "formatText", { blockId: beta, text: "Beta", add: ["bold"] });
    await ok(editor, "replaceText", { blockId: alpha, search: "Alpha", replace: "Gamma" });
    expect(exportMarkdown(editor)).toBe("Gamma\n\n**Beta**");
    editor.dispatchCommand(UNDO_COMMAND, undefined);
    expect(exportMarkdown(editor)).toBe("Alpha\n\n**Beta**");
    expect(exportMarkdown(editor)).toBe(freshMarkdown(editor));
  });

  it("follows a restored editor state", async () => {
    const editor = createDocumentEditor({ markdown: "Alpha\n\nBeta" });
    const before = editor.getEditorState();
    const [alpha = ""] = blockIds(editor);
    exportMarkdown(editor);
    await ok(editor, "replaceBlock", { blockId: alpha, markdown: "# Title" });
    expect(exportMarkdown(editor)).toBe("# Title\n\nBeta");
    editor.setEditorState(before);
    expect(exportMarkdown(editor)).toBe("Alpha\n\nBeta");
  });
});

describe("root text of document editors", () => {
  it("reads the current text after agent edits and direct updates", async () => {
    const editor = createDocumentEditor({ markdown: "One\n\nTwo" });
    const [one = ""] = blockIds(editor);
    const rootText = () => editor.read(() => $getRoot().getTextContent());
    expect(rootText()).toBe("One\n\nTwo");
    await ok(editor, "replaceText", { blockId: one, search: "One", replace: "Uno" });
    expect(rootText()).toBe("Uno\n\nTwo");
    await ok(editor, "insertBlocks", { markdown: "Three", position: { at: "end" } });
    await ok(editor, "insertBlocks", { markdown: "Four", position: { at: "end" } });
    expect(rootText()).toBe("Uno\n\nTwo\n\nThree\n\nFour");
    editor.update(() => $getRoot().getFirstChild()?.remove(), { discrete: true });
    expect(rootText()).toBe("Two\n\nThree\n\nFour");
  });
});

describe("node map compaction", () => {
  it("keeps the pending writes of a long document's node map small", async () => {
    const editor = createDocumentEditor({
      markdown: Array.from({ length: 1500 }, (_, i) => `Paragraph ${i}`).join("\n\n"),
    });
    const ids = blockIds(editor);
    const nursery = () => {
      const map: object = editor.getEditorState()._nodeMap;
      return "_nursery" in map && map._nursery instanceof Map ? map._nursery.size : 0;
    };
    for (let i = 0; i < 200; i++) {
      await ok(editor, "replaceText", { blockId: ids[i] ?? "", search: "Paragraph", replace: "P" });
    }
    const size = editor.getEditorState()._nodeMap.size;
    expect(nursery()).toBeLessThanOrEqual(compactionThreshold(size));
    expect(exportMarkdown(editor)).toBe(freshMarkdown(editor));
    expect(exportMarkdown(editor).startsWith("P 0\n\nP 1")).toBe(true);
  });
});
