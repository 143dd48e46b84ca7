import { type ToolName, type ToolOutput, toolSchemas } from "@coauthor/types/tools";
import { $isListItemNode } from "@lexical/list";
import { $getRoot, type LexicalEditor } from "lexical";
import { expect, it } from "vitest";
import { $forEachAddressable, $getBlockId } from "./block-id.ts";
import { createDocumentEditor } from "./document-editor.ts";
import { runEditorTool } from "./editor-tools.ts";
import { exportMarkdown } from "./markdown.ts";
import { $isWrapperItem } from "./tools/tool-helpers.ts";

// Test-only helpers: shared case tables drive the tests of every editor tool.

/** The document most cases start from. */
export const DOC =
  "# Title\n\nFirst paragraph with **bold** text.\n\n- one\n- two\n\n> A quote\n\nLast one, one more.";

export type ToolCase = {
  name: string;
  /** Document before the call (default DOC). */
  markdown?: string;
  tool: ToolName;
  /** Builds the tool input from the document's top-level block ids and list item ids (in order). */
  input: (ids: string[], items: string[]) => unknown;
  /** Expected result; a function of the block ids before and after when it depends on them. */
  output: ToolOutput | ((ids: string[], after: string[], items: string[]) => ToolOutput);
  /** Markdown after the call; omitted for calls that must leave the document unchanged. */
  after?: string;
};

/** Block ids of the editor's top-level blocks, "missing" where a block has none. */
export function blockIds(editor: LexicalEditor): string[] {
  return editor.read(() =>
    $getRoot()
      .getChildren()
      .map((node) => $getBlockId(node) ?? "missing"),
  );
}

/** Ids of every list item the model sees (not Lexical's wrappers of nested lists), in document order. */
export function itemIds(editor: LexicalEditor): string[] {
  const ids: string[] = [];
  editor.read(() =>
    $forEachAddressable((node) => {
      if ($isListItemNode(node) && !$isWrapperItem(node)) ids.push($getBlockId(node) ?? "missing");
    }),
  );
  return ids;
}

/** Markdown and JSON of the document, to prove a failed call changed nothing. */
export function snapshot(editor: LexicalEditor): { markdown: string; json: string } {
  return { markdown: exportMarkdown(editor), json: JSON.stringify(editor.getEditorState().toJSON()) };
}

/** Expected failure with `code` whose message mentions `mentions`. */
export function fail(code: string, mentions = ""): () => ToolOutput {
  return () => expect.objectContaining({ ok: false, code, message: expect.stringContaining(mentions) });
}

/** Runs each case: result, output schema, Markdown after, and unique ids on every block. */
export function itAppliesCases(cases: ToolCase[]): void {
  it.each(cases)("$name", async ({ markdown = DOC, tool, input, output, after }) => {
    const editor = createDocumentEditor({ markdown });
    const before = blockIds(editor);
    const items = itemIds(editor);
    const result = await runEditorTool(editor, tool, input(before, items));
    const expected = typeof output === "function" ? output(before, blockIds(editor), items) : output;
    expect(result).toEqual(expected);
    expect(toolSchemas[tool].output.safeParse(result).success).toBe(true);
    expect(exportMarkdown(editor)).toBe(after ?? markdown);
    const final = blockIds(editor);
    expect(new Set(final).size).toBe(final.length);
    expect(final).not.toContain("missing");
  });
}

/** Runs each failing case: expected failure, and the document's Markdown and JSON unchanged. */
export function itRejectsCases(cases: ToolCase[]): void {
  it.each(cases)(
    "fails on $name and leaves the document unchanged",
    async ({ markdown = DOC, tool, input, output }) => {
      const editor = createDocumentEditor({ markdown });
      const before = snapshot(editor);
      const ids = blockIds(editor);
      const items = itemIds(editor);
      const result = await runEditorTool(editor, tool, input(ids, items));
      expect(result).toEqual(typeof output === "function" ? output(ids, ids, items) : output);
      expect(snapshot(editor)).toEqual(before);
    },
  );
}
