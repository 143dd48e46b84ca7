export { isWriteTool, WRITE_TOOL_NAMES } from "@coauthor/types/tools";
export {
  findCall,
  nextClock,
  recordCall,
  removeSecondExecutions,
} from "./agent-calls.ts";
export { AGENT_EDIT_TAG, applyAgentEdit, toolFailure } from "./agent-edit.ts";
export { documentAuthors, registerAuthorship, runToolNowAs } from "./authorship.ts";
export { $getBlockAuthors, blockAuthorsState } from "./block-authors.ts";
export {
  $ensureBlockIds,
  $getBlockId,
  $setBlockId,
  blockIdState,
  createBlockId,
} from "./block-id.ts";
export { $findBlockById, registerBlockIds } from "./block-index.ts";
export {
  type BlockSnapshot,
  blockKey,
  diffSnapshots,
  hasChanges,
  type RunChanges,
  snapshotBlocks,
} from "./block-snapshot.ts";
export {
  $anchoredThreadIds,
  $commentRangeOf,
  $findQuoteRange,
  $markCommentRange,
  $unmarkThread,
  type CommentRange,
  type TextPoint,
} from "./comment-anchors.ts";
export {
  addReply,
  addThread,
  COMMENTS_ROOT_NAME,
  deleteComment,
  editComment,
  readThread,
  readThreads,
  setThreadStatus,
} from "./comment-threads.ts";
export { registerConcurrentDecisions } from "./concurrent-decisions.ts";
export { MAX_LIST_INDENT, registerTextControlFilter } from "./content-input.ts";
export { type ContentProblem, describeContentProblem, InvalidContentError } from "./content-problem.ts";
export { type ContentRepair, repairContent } from "./content-repair.ts";
export { type RestoreSummary, restoreContent } from "./content-restore.ts";
export { $contentRuleBreak, $elementDepth } from "./content-rule-check.ts";
export { $readCriticMarkup, importCriticMarkup } from "./criticmarkup-read.ts";
export { CriticMarkupError } from "./criticmarkup-syntax.ts";
export { type ToolDefinition, toolDefinitions } from "./definitions.ts";
export { type DocumentBlock, documentBlocks } from "./document-blocks.ts";
export { createDocumentEditor, type DocumentEditorOptions } from "./document-editor.ts";
export { editorNodes } from "./editor-nodes.ts";
export {
  type EditorTool,
  editorTools,
  formatInputIssues,
  runEditorTool,
  runEditorToolNow,
} from "./editor-tools.ts";
// The Markdown module's two halves without an editor (the benchmark's floor).
export { longestIncreasingRun } from "./longest-run.ts";
export {
  $parseMarkdownBlocks,
  $readMarkdownBlocks,
  exportMarkdown,
  importMarkdown,
  looksLikeMarkdown,
  markdownShortcutTransformers,
} from "./markdown.ts";
export { parseMarkdown } from "./markdown-syntax.ts";
export { exportMarkdownView, hasPendingSuggestions, namesAuthors } from "./markdown-views.ts";
export { writeMarkdown } from "./markdown-write.ts";
export { MAX_SEARCH_TEXT_CHARS, plainTextOf, plainTextOfState } from "./plain-text.ts";
export { fromRunEdits, mergeRunEdits, toRunEdits } from "./run-edits.ts";
export {
  createStaleGuard,
  createStaleGuardMemory,
  type StaleGuard,
  type StaleGuardMemory,
  type ToolRunner,
} from "./stale-guard.ts";
export { runToolAsSuggestion, runToolAsSuggestionNow } from "./suggest-tool-calls.ts";
export { registerSuggestingMode, type SuggestingModeOptions } from "./suggesting-mode.ts";
export { recordSuggestionOutcomes, tellSuggestionOutcomes } from "./suggestion-outcomes.ts";
export {
  $decideSuggestions,
  $getBlockSuggestion,
  applySuggestedChanges,
  blockSuggestionState,
  listSuggestions,
  type PendingSuggestion,
  type SuggestionAuthor,
} from "./suggestions.ts";
export { $getBlockType } from "./tools/block-type.ts";
export { unsafeRegexReason } from "./tools/regex-safety.ts";
export {
  type ContentViolation,
  unknownNodeTypes,
  updateContentViolation,
} from "./update-content-check.ts";
export { rootsWrittenBy } from "./update-roots.ts";
export {
  AGENT_CALLS_ROOT_NAME,
  type BoundDocumentEditor,
  bindDocumentEditor,
  bindMirroredEditor,
  flush,
  stateFromYjsUpdate,
  YJS_ROOT_NAME,
  yjsUpdateFromMarkdown,
  yjsUpdateFromState,
} from "./yjs-document.ts";
