export { AGENT_EDIT_TAG, applyAgentEdit, toolFailure } from "./agent-edit.ts";
export {
  $ensureBlockIds,
  $findBlockById,
  $getBlockId,
  $setBlockId,
  blockIdState,
  createBlockId,
  registerBlockIds,
} from "./block-id.ts";
export { type ToolDefinition, toolDefinitions } from "./definitions.ts";
export { createDocumentEditor, type DocumentEditorOptions } from "./document-editor.ts";
export { editorNodes } from "./editor-nodes.ts";
export { type EditorTool, editorTools, formatInputIssues, runEditorTool } from "./editor-tools.ts";
export { exportMarkdown, importMarkdown, markdownTransformers } from "./markdown.ts";
export { $getBlockType } from "./tools/block-type.ts";
