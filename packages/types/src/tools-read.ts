import { z } from "zod";
import { blockIdSchema, withFailure } from "./tool-base.ts";

// The schemas of the tools that only read the document (tools.ts has the writes).

// readDocument

export const readDocumentInputSchema = z.object({
  fromBlock: z.int().min(0).default(0),
  fromBlockId: blockIdSchema.optional(),
  maxBlocks: z.int().min(1).max(500).default(200),
  maxChars: z.int().min(500).max(100_000).default(20_000),
});
export type ReadDocumentInput = z.infer<typeof readDocumentInputSchema>;

export const listItemSummarySchema = z.object({ id: z.string(), depth: z.int().min(0), text: z.string() });

export const documentBlockSchema = z.object({
  id: z.string(),
  /** "paragraph", "heading-1".."heading-6", "quote", "code", "bullet-list", "number-list", "check-list", "table", "rule" */
  type: z.string(),
  markdown: z.string(),
  /** Lists only: each item's id and plain text, so single items can be addressed. */
  items: z.array(listItemSummarySchema).optional(),
});
export type DocumentBlock = z.infer<typeof documentBlockSchema>;

export const readDocumentSuccessSchema = z.object({
  ok: z.literal(true),
  blocks: z.array(documentBlockSchema),
  totalBlocks: z.int().min(0),
  nextFromBlock: z.int().min(0).nullable(),
  /** When blocks remain after this page: how many, and how to read them (for the model, in words). */
  notice: z.string().optional(),
});
export const readDocumentOutputSchema = withFailure(readDocumentSuccessSchema);
export type ReadDocumentOutput = z.infer<typeof readDocumentOutputSchema>;

// readSelection

export const readSelectionInputSchema = z.object({});
export type ReadSelectionInput = z.infer<typeof readSelectionInputSchema>;

export const textPointSchema = z.object({ blockId: z.string(), offset: z.int().min(0) });
export const readSelectionSuccessSchema = z.object({
  ok: z.literal(true),
  selection: z
    .object({
      collapsed: z.boolean(),
      text: z.string(),
      blockIds: z.array(z.string()),
      anchor: textPointSchema,
      focus: textPointSchema,
    })
    .nullable(),
});
export const readSelectionOutputSchema = withFailure(readSelectionSuccessSchema);
export type ReadSelectionOutput = z.infer<typeof readSelectionOutputSchema>;

// findText

export const findTextInputSchema = z.object({
  query: z.string().min(1).max(500),
  regex: z.boolean().default(false),
  caseSensitive: z.boolean().default(true),
  blockId: blockIdSchema.optional(),
  maxResults: z.int().min(1).max(500).default(50),
});
export type FindTextInput = z.infer<typeof findTextInputSchema>;

export const textMatchSchema = z.object({
  blockId: z.string(),
  start: z.int().min(0),
  end: z.int().min(0),
  text: z.string(),
});
export const findTextSuccessSchema = z.object({
  ok: z.literal(true),
  matches: z.array(textMatchSchema),
  truncated: z.boolean(),
});
export const findTextOutputSchema = withFailure(findTextSuccessSchema);
export type FindTextOutput = z.infer<typeof findTextOutputSchema>;
