import { z } from "zod";

/** What every editor tool returns when it did not apply: a machine code plus a message the model can act on. */
export const toolFailureSchema = z.object({
  ok: z.literal(false),
  code: z.string(),
  message: z.string(),
});
export type ToolFailure = z.infer<typeof toolFailureSchema>;

export const toolNameSchema = z.enum(["readDocument", "insertBlocks", "replaceText", "deleteBlocks"]);
export type ToolName = z.infer<typeof toolNameSchema>;

const blockIdSchema = z.string().min(1);

// readDocument

export const readDocumentInputSchema = z.object({
  fromBlock: z.int().min(0).default(0),
  maxBlocks: z.int().min(1).max(500).default(200),
});
export type ReadDocumentInput = z.infer<typeof readDocumentInputSchema>;

export const documentBlockSchema = z.object({
  id: z.string(),
  /** "paragraph", "heading-1".."heading-6", "quote", "code", "bullet-list", "number-list", "check-list", … */
  type: z.string(),
  markdown: z.string(),
});
export type DocumentBlock = z.infer<typeof documentBlockSchema>;

export const readDocumentSuccessSchema = z.object({
  ok: z.literal(true),
  blocks: z.array(documentBlockSchema),
  totalBlocks: z.int().min(0),
  nextFromBlock: z.int().min(0).nullable(),
});
export const readDocumentOutputSchema = z.discriminatedUnion("ok", [
  readDocumentSuccessSchema,
  toolFailureSchema,
]);
export type ReadDocumentOutput = z.infer<typeof readDocumentOutputSchema>;

// insertBlocks

export const blockPositionSchema = z.discriminatedUnion("at", [
  z.object({ at: z.literal("end") }),
  z.object({ at: z.literal("start") }),
  z.object({ at: z.literal("after"), blockId: blockIdSchema }),
  z.object({ at: z.literal("before"), blockId: blockIdSchema }),
]);
export type BlockPosition = z.infer<typeof blockPositionSchema>;

export const insertBlocksInputSchema = z.object({
  markdown: z.string().min(1).max(100_000),
  position: blockPositionSchema,
});
export type InsertBlocksInput = z.infer<typeof insertBlocksInputSchema>;

export const insertBlocksSuccessSchema = z.object({
  ok: z.literal(true),
  blockIds: z.array(z.string()),
});
export const insertBlocksOutputSchema = z.discriminatedUnion("ok", [
  insertBlocksSuccessSchema,
  toolFailureSchema,
]);
export type InsertBlocksOutput = z.infer<typeof insertBlocksOutputSchema>;

// replaceText

export const replaceTextInputSchema = z.object({
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
});
export const replaceTextOutputSchema = z.discriminatedUnion("ok", [
  replaceTextSuccessSchema,
  toolFailureSchema,
]);
export type ReplaceTextOutput = z.infer<typeof replaceTextOutputSchema>;

// deleteBlocks

export const deleteBlocksInputSchema = z.object({
  blockIds: z.array(blockIdSchema).min(1),
});
export type DeleteBlocksInput = z.infer<typeof deleteBlocksInputSchema>;

export const deleteBlocksSuccessSchema = z.object({
  ok: z.literal(true),
  deleted: z.int().min(0),
});
export const deleteBlocksOutputSchema = z.discriminatedUnion("ok", [
  deleteBlocksSuccessSchema,
  toolFailureSchema,
]);
export type DeleteBlocksOutput = z.infer<typeof deleteBlocksOutputSchema>;

/** Input and output schema of every editor tool, keyed by tool name. */
export const toolSchemas = {
  readDocument: { input: readDocumentInputSchema, output: readDocumentOutputSchema },
  insertBlocks: { input: insertBlocksInputSchema, output: insertBlocksOutputSchema },
  replaceText: { input: replaceTextInputSchema, output: replaceTextOutputSchema },
  deleteBlocks: { input: deleteBlocksInputSchema, output: deleteBlocksOutputSchema },
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
