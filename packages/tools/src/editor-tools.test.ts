import { createHeadlessEditor } from "@lexical/headless";
import { describe, expect, it } from "vitest";
import { AGENT_EDIT_TAG } from "./agent-edit.ts";
import { registerBlockIds } from "./block-index.ts";
import { createDocumentEditor } from "./document-editor.ts";
import { editorTools, runEditorTool } from "./editor-tools.ts";
import { importMarkdown } from "./markdown.ts";
import { blockIds, DOC, snapshot } from "./tool-cases.ts";

describe("editor tools", () => {
  it("fails on an unknown tool name and leaves the document unchanged", async () => {
    const editor = createDocumentEditor({ markdown: DOC });
    const before = snapshot(editor);
    const result = await runEditorTool(editor, "rewriteEverything", {});
    expect(result).toMatchObject({ ok: false, code: "unknown-tool" });
    expect(snapshot(editor)).toEqual(before);
  });

  it("reports an editor failure as internal-error and leaves the document unchanged", async () => {
    // This editor lacks HeadingNode, so inserting a heading fails inside the update.
    const editor = createHeadlessEditor({
      onError: (error) => {
        throw error;
      },
    });
    registerBlockIds(editor);
    importMarkdown(editor, "plain");
    const before = snapshot(editor);
    const result = await runEditorTool(editor, "insertBlocks", {
      markdown: "# Heading",
      position: { at: "end" },
    });
    expect(result).toMatchObject({
      ok: false,
      code: "internal-error",
      message: expect.stringContaining("HeadingNode"),
    });
    expect(snapshot(editor)).toEqual(before);
  });

  it("makes each write one update tagged as an agent edit", async () => {
    const editor = createDocumentEditor({ markdown: DOC });
    const [first, second] = blockIds(editor);
    const tags: string[][] = [];
    editor.registerUpdateListener(({ tags: t, dirtyElements }) => {
      if (dirtyElements.size > 0) tags.push([...t]);
    });
    await runEditorTool(editor, "insertBlocks", { markdown: "a\n\nb\n\nc", position: { at: "end" } });
    await runEditorTool(editor, "replaceText", { search: "one", replace: "1" });
    await runEditorTool(editor, "deleteBlocks", { blockIds: [first, second] });
    expect(tags).toEqual([[AGENT_EDIT_TAG], [AGENT_EDIT_TAG], [AGENT_EDIT_TAG]]);
  });

  it("exposes each tool's definition with its implementation", async () => {
    const editor = createDocumentEditor({ markdown: "Hi" });
    expect(editorTools.readDocument.name).toBe("readDocument");
    const result = await editorTools.readDocument.run(editor, { fromBlock: 0, maxBlocks: 1, maxChars: 1000 });
    expect(result.ok && result.blocks[0]?.markdown).toBe("Hi");
  });
});
