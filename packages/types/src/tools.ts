import { z } from "zod";
import { suggestionDecisionSchema, suggestionReasonSchema } from "./suggestions.ts";
import { blockIdSchema, type ToolName, withFailure, writeSuccessSchema } from "./tool-base.ts";
import {
  findTextInputSchema,
  findTextOutputSchema,
  readDocumentInputSchema,
  readDocumentOutputSchema,
  readSelectionInputSchema,
  readSelectionOutputSchema,
} from "./tools-read.ts";

export * from "./tool-base.ts";
export * from "./tools-read.ts";

// insertBlocks

// Positions are sent to every model provider as JSON Schema: the discriminator is a one-value
// enum rather than a literal (JSON Schema `enum`, not `const`, which Gemini's schema subset
// lacks). It accepts the same values.
const at = <T extends string>(value: T) => z.enum([value]);
const endPosition = z.object({ at: at("end") });
const startPosition = z.object({ at: at("start") });
const afterPosition = z.object({ at: at("after"), blockId: blockIdSchema });
const beforePosition = z.object({ at: at("before"), blockId: blockIdSchema });

export const blockPositionSchema = z.discriminatedUnion("at", [
  endPosition,
  startPosition,
  afterPosition,
  beforePosition,
  z.object({ at: at("selection") }),
]);
export type BlockPosition = z.infer<typeof blockPositionSchema>;

export const insertBlocksInputSchema = z.object({
  reason: suggestionReasonSchema,
  markdown: z.string().min(1).max(100_000),
  position: blockPositionSchema,
});
export type InsertBlocksInput = z.infer<typeof insertBlocksInputSchema>;
export const insertBlocksSuccessSchema = writeSuccessSchema;
export const insertBlocksOutputSchema = withFailure(insertBlocksSuccessSchema);
export type InsertBlocksOutput = z.infer<typeof insertBlocksOutputSchema>;

// replaceBlock

export const replaceBlockInputSchema = z.object({
  reason: suggestionReasonSchema,
  blockId: blockIdSchema,
  markdown: z.string().min(1).max(100_000),
});
export type ReplaceBlockInput = z.infer<typeof replaceBlockInputSchema>;
export const replaceBlockOutputSchema = withFailure(writeSuccessSchema);
export type ReplaceBlockOutput = z.infer<typeof replaceBlockOutputSchema>;

// replaceText

export const replaceTextInputSchema = z.object({
  reason: suggestionReasonSchema,
  search: z.string().min(1),
  replace: z.string(),
  blockId: blockIdSchema.optional(),
  occurrence: z.enum(["first", "all"]).default("all"),
});
export type ReplaceTextInput = z.infer<typeof replaceTextInputSchema>;

export const replaceTextSuccessSchema = z.object({
  ok: z.literal(true),
  replacements: z.int().min(1),
  blockIds: z.array(z.string()),
  /** Occurrences left as they were because they span a line break or table cells. */
  acrossBreaks: z.object({ count: z.int().min(1), blockIds: z.array(z.string()) }).optional(),
});
export const replaceTextOutputSchema = withFailure(replaceTextSuccessSchema);
export type ReplaceTextOutput = z.infer<typeof replaceTextOutputSchema>;

// deleteBlocks

export const deleteBlocksInputSchema = z.object({
  reason: suggestionReasonSchema,
  blockIds: z.array(blockIdSchema).min(1).max(1000),
});
export type DeleteBlocksInput = z.infer<typeof deleteBlocksInputSchema>;

export const deleteBlocksSuccessSchema = z.object({
  ok: z.literal(true),
  deleted: z.int().min(0),
  blockIds: z.array(z.string()),
});
export const deleteBlocksOutputSchema = withFailure(deleteBlocksSuccessSchema);
export type DeleteBlocksOutput = z.infer<typeof deleteBlocksOutputSchema>;

// moveBlock

export const moveBlockInputSchema = z.object({
  reason: suggestionReasonSchema,
  blockId: blockIdSchema,
  position: z.discriminatedUnion("at", [endPosition, startPosition, afterPosition, beforePosition]),
});
export type MoveBlockInput = z.infer<typeof moveBlockInputSchema>;
export const moveBlockOutputSchema = withFailure(writeSuccessSchema);
export type MoveBlockOutput = z.infer<typeof moveBlockOutputSchema>;

// setBlockType

export const blockTypeSchema = z.enum([
  "paragraph",
  "heading-1",
  "heading-2",
  "heading-3",
  "heading-4",
  "heading-5",
  "heading-6",
  "quote",
  "code",
  "bullet-list",
  "number-list",
  "check-list",
]);
export type BlockType = z.infer<typeof blockTypeSchema>;

export const setBlockTypeInputSchema = z.object({
  reason: suggestionReasonSchema,
  blockId: blockIdSchema,
  type: blockTypeSchema,
  language: z.string().max(40).optional(),
});
export type SetBlockTypeInput = z.infer<typeof setBlockTypeInputSchema>;
export const setBlockTypeOutputSchema = withFailure(writeSuccessSchema);
export type SetBlockTypeOutput = z.infer<typeof setBlockTypeOutputSchema>;

// formatText

export const textFormatSchema = z.enum(["bold", "italic", "underline", "strikethrough", "code"]);
export type TextFormatName = z.infer<typeof textFormatSchema>;

export const formatTextInputSchema = z.object({
  reason: suggestionReasonSchema,
  blockId: blockIdSchema,
  text: z.string().min(1).optional(),
  occurrence: z.int().min(1).default(1),
  start: z.int().min(0).optional(),
  end: z.int().min(0).optional(),
  add: z.array(textFormatSchema).default([]),
  remove: z.array(textFormatSchema).default([]),
  link: z.union([z.url({ protocol: /^(https?|mailto)$/ }), z.null()]).optional(),
});
export type FormatTextInput = z.infer<typeof formatTextInputSchema>;
export const formatTextOutputSchema = withFailure(writeSuccessSchema);
export type FormatTextOutput = z.infer<typeof formatTextOutputSchema>;

// insertTable

export const insertTableInputSchema = z.object({
  reason: suggestionReasonSchema,
  rows: z
    .array(z.array(z.string().max(10_000)).min(1).max(50))
    .min(1)
    .max(500),
  header: z.boolean().default(true),
  position: blockPositionSchema,
});
export type InsertTableInput = z.infer<typeof insertTableInputSchema>;
export const insertTableOutputSchema = withFailure(writeSuccessSchema);
export type InsertTableOutput = z.infer<typeof insertTableOutputSchema>;

// updateTableCell

export const updateTableCellInputSchema = z.object({
  reason: suggestionReasonSchema,
  blockId: blockIdSchema,
  row: z.int().min(0),
  column: z.int().min(0),
  text: z.string().max(10_000),
});
export type UpdateTableCellInput = z.infer<typeof updateTableCellInputSchema>;
export const updateTableCellOutputSchema = withFailure(writeSuccessSchema);
export type UpdateTableCellOutput = z.infer<typeof updateTableCellOutputSchema>;

// decideSuggestions

export const decideSuggestionsInputSchema = z.object({
  decision: suggestionDecisionSchema,
  /** The blocks whose pending suggestions to decide (ids from this run's earlier results); none: all of this run's. */
  blockIds: z.array(blockIdSchema).min(1).max(1000).optional(),
});
export type DecideSuggestionsInput = z.infer<typeof decideSuggestionsInputSchema>;

export const decideSuggestionsSuccessSchema = z.object({
  ok: z.literal(true),
  /** How many of this run's pending suggestions were decided. */
  decided: z.int().min(0),
  /** The ids of the blocks that stay, changed by the decision (an accepted insertion, a rejected deletion). */
  blockIds: z.array(z.string()),
});
export const decideSuggestionsOutputSchema = withFailure(decideSuggestionsSuccessSchema);
export type DecideSuggestionsOutput = z.infer<typeof decideSuggestionsOutputSchema>;

/** Input and output schema of every editor tool, keyed by tool name. */
export const toolSchemas = {
  readDocument: { input: readDocumentInputSchema, output: readDocumentOutputSchema },
  readSelection: { input: readSelectionInputSchema, output: readSelectionOutputSchema },
  findText: { input: findTextInputSchema, output: findTextOutputSchema },
  insertBlocks: { input: insertBlocksInputSchema, output: insertBlocksOutputSchema },
  replaceBlock: { input: replaceBlockInputSchema, output: replaceBlockOutputSchema },
  replaceText: { input: replaceTextInputSchema, output: replaceTextOutputSchema },
  deleteBlocks: { input: deleteBlocksInputSchema, output: deleteBlocksOutputSchema },
  moveBlock: { input: moveBlockInputSchema, output: moveBlockOutputSchema },
  setBlockType: { input: setBlockTypeInputSchema, output: setBlockTypeOutputSchema },
  formatText: { input: formatTextInputSchema, output: formatTextOutputSchema },
  insertTable: { input: insertTableInputSchema, output: insertTableOutputSchema },
  updateTableCell: { input: updateTableCellInputSchema, output: updateTableCellOutputSchema },
  decideSuggestions: { input: decideSuggestionsInputSchema, output: decideSuggestionsOutputSchema },
} as const satisfies { [K in ToolName]: { input: z.ZodType; output: z.ZodType } };
export type ToolSchemas = typeof toolSchemas;

/** Parsed (defaults applied) input of tool `K`. */
export type ToolInput<K extends ToolName> = z.infer<ToolSchemas[K]["input"]>;
/** Input of tool `K` as the model may send it (defaulted fields optional). */
export type ToolInputArgs<K extends ToolName> = z.input<ToolSchemas[K]["input"]>;
/** Output of tool `K`. */
export type ToolOutputOf<K extends ToolName> = z.infer<ToolSchemas[K]["output"]>;
/** Output of any tool. */
export type ToolOutput = ToolOutputOf<ToolName>;
