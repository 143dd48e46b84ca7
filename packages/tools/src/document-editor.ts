import { createHeadlessEditor } from "@lexical/headless";
import type { LexicalEditor, SerializedEditorState } from "lexical";
import { $ensureBlockIds } from "./block-id.ts";
import { registerBlockIds } from "./block-index.ts";
import { editorNodes } from "./editor-nodes.ts";
import { importMarkdown } from "./markdown.ts";
import { registerNodeMapCompaction } from "./node-map-compaction.ts";
import { builtInRootTransforms, dropRootNormalization } from "./root-normalization.ts";
import { registerRootTextCache } from "./root-text-cache.ts";

export type DocumentEditorOptions = {
  /** Initial content as Markdown. */
  markdown?: string;
  /** Initial content as a serialized editor state (JSON string or object). Wins over `markdown`. */
  state?: string | SerializedEditorState;
  namespace?: string;
};

/** A headless editor with the document's nodes and block ids, optionally loaded from Markdown or JSON. */
export function createDocumentEditor(options: DocumentEditorOptions = {}): LexicalEditor {
  const editor = createHeadlessEditor({
    namespace: options.namespace ?? "coauthor-document",
    nodes: [...editorNodes],
    onError: (error) => {
      throw error;
    },
  });
  const rootTransforms = builtInRootTransforms(editor);
  registerRootTextCache(editor);
  registerNodeMapCompaction(editor);
  registerBlockIds(editor);
  if (options.state !== undefined) {
    editor.setEditorState(editor.parseEditorState(options.state));
  } else if (options.markdown !== undefined) {
    importMarkdown(editor, options.markdown);
  }
  // Commit ids now so callers (and the first history entry) see them without a microtask.
  editor.update($ensureBlockIds, { discrete: true });
  dropRootNormalization(editor, rootTransforms);
  return editor;
}
