import { $createTextNode, $getRoot, $isElementNode, type LexicalEditor } from "lexical";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { restoreContent } from "./content-restore.ts";
import { runEditorTool } from "./editor-tools.ts";
import { exportMarkdown } from "./markdown.ts";
import { exchange } from "./synced-copies.ts";
import { blockIds } from "./tool-cases.ts";
import { bindDocumentEditor, yjsUpdateFromMarkdown } from "./yjs-document.ts";

/** Types `text` at the end of top-level block `index` (as a person would, one update). */
function typeInto(editor: LexicalEditor, index: number, text: string): void {
  editor.update(
    () => {
      const block = $getRoot().getChildAtIndex(index);
      if (!$isElementNode(block)) throw new Error(`no block ${index}`);
      block.append($createTextNode(text));
    },
    { discrete: true },
  );
}

const VERSION = "# Plan\n\nFirst part.\n\n- one\n- two\n\nLast part.";

describe("restoring a version as a forward change", () => {
  it("makes the document equal to the version block by block, ids kept, unchanged blocks untouched", async () => {
    const live = bindDocumentEditor(yjsUpdateFromMarkdown(VERSION));
    const version = live.editor.getEditorState().toJSON();
    const versionIds = blockIds(live.editor);
    const ids = blockIds(live.editor);
    // People and the agent change it: a block rewritten, one deleted, one added, words typed.
    await runEditorTool(live.editor, "replaceBlock", { blockId: ids[1], markdown: "Rewritten part." });
    await runEditorTool(live.editor, "deleteBlocks", { blockIds: [ids[3]] });
    await runEditorTool(live.editor, "insertBlocks", { markdown: "A new ending.", position: { at: "end" } });
    typeInto(live.editor, 0, " (draft)");
    expect(exportMarkdown(live.editor)).not.toBe(VERSION);

    const untouched = live.editor.read(() => $getRoot().getChildAtIndex(2)?.getKey());
    const summary = restoreContent(live.editor, version);
    expect(exportMarkdown(live.editor)).toBe(VERSION);
    expect(blockIds(live.editor)).toEqual(versionIds);
    expect(summary).toEqual({ kept: 1, written: 3, removed: 3 });
    // The list nobody changed is the same node: a co-editor typing in it is not disturbed.
    expect(live.editor.read(() => $getRoot().getChildAtIndex(2)?.getKey())).toBe(untouched);
    // A fresh editor on the Yjs document reads the same: the restore is in the shared document.
    expect(exportMarkdown(bindDocumentEditor(Y.encodeStateAsUpdate(live.doc)).editor)).toBe(VERSION);
  });

  it("converges once with a co-editor typing into an unchanged block during the restore", () => {
    const seed = yjsUpdateFromMarkdown(VERSION);
    const restorer = bindDocumentEditor(seed);
    const writer = bindDocumentEditor(seed);
    const version = restorer.editor.getEditorState().toJSON();
    typeInto(restorer.editor, 3, " Then more.");
    exchange(restorer, writer);
    // The writer types in the heading while the restore happens on the other copy.
    typeInto(writer.editor, 0, " for May");
    restoreContent(restorer.editor, version);
    exchange(restorer, writer);
    const expected = "# Plan for May\n\nFirst part.\n\n- one\n- two\n\nLast part.";
    expect(exportMarkdown(restorer.editor)).toBe(expected);
    expect(exportMarkdown(writer.editor)).toBe(expected);
  });

  it("a copy offline during the restore does not bring the old text back when it reconnects", () => {
    const seed = yjsUpdateFromMarkdown(VERSION);
    const server = bindDocumentEditor(seed);
    const version = server.editor.getEditorState().toJSON();
    typeInto(server.editor, 3, " Later words.");
    const offline = bindDocumentEditor(Y.encodeStateAsUpdate(server.doc));
    restoreContent(server.editor, version);
    // The offline copy typed meanwhile in a block the restore did not change: that merges.
    typeInto(offline.editor, 1, " Offline edit.");
    exchange(server, offline);
    const expected = "# Plan\n\nFirst part. Offline edit.\n\n- one\n- two\n\nLast part.";
    expect(exportMarkdown(server.editor)).toBe(expected);
    expect(exportMarkdown(offline.editor)).toBe(expected);
  });
});
