import { createHeadlessEditor } from "@lexical/headless";
import { $getRoot, type LexicalEditor } from "lexical";
import { describe, expect, it } from "vitest";
import { applyAgentEdit } from "./agent-edit.ts";
import { registerBlockIds } from "./block-index.ts";
import { createDocumentEditor } from "./document-editor.ts";
import { editorNodes } from "./editor-nodes.ts";
import { exportMarkdown, importMarkdown } from "./markdown.ts";

function $removeFirstThenThrow(): never {
  $getRoot().getFirstChild()?.remove();
  throw new Error("boom");
}

function snapshot(editor: LexicalEditor): string {
  return JSON.stringify(editor.getEditorState().toJSON());
}

describe("applyAgentEdit", () => {
  it("discards a half-done edit when the editor's onError rethrows", () => {
    const editor = createDocumentEditor({ markdown: "One\n\nTwo" });
    const before = snapshot(editor);
    expect(() => applyAgentEdit(editor, $removeFirstThenThrow)).toThrow("boom");
    expect(snapshot(editor)).toBe(before);
    // A later update must not resurrect the aborted edit.
    editor.update(() => {}, { discrete: true });
    expect(exportMarkdown(editor)).toBe("One\n\nTwo");
  });

  it("discards a half-done edit and still reports it when the editor's onError only logs", () => {
    const logged: Error[] = [];
    const editor = createHeadlessEditor({ nodes: [...editorNodes], onError: (error) => logged.push(error) });
    registerBlockIds(editor);
    importMarkdown(editor, "One\n\nTwo");
    const before = snapshot(editor);
    expect(() => applyAgentEdit(editor, $removeFirstThenThrow)).toThrow("boom");
    expect(logged.map((error) => error.message)).toEqual(["boom"]);
    expect(snapshot(editor)).toBe(before);
  });

  it("returns the value of a successful edit", () => {
    const editor = createDocumentEditor({ markdown: "One" });
    expect(applyAgentEdit(editor, () => $getRoot().getTextContent())).toBe("One");
  });
});
