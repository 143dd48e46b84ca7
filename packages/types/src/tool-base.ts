import { z } from "zod";
import { suggestionOutcomesSchema } from "./suggestions.ts";

// What every editor tool shares: names, the failure shape and codes, and the write result
// (tools.ts and tools-read.ts describe each tool).

/** What every editor tool returns when it did not apply: a machine code plus a message the model can act on. */
export const toolFailureSchema = z.object({
  ok: z.literal(false),
  code: z.string(),
  message: z.string(),
});
export type ToolFailure = z.infer<typeof toolFailureSchema>;

/** Tools that only read the document. */
export const READ_TOOL_NAMES = ["readDocument", "readSelection", "findText"] as const;

/** Tools that change the document; every other tool only reads it. */
export const WRITE_TOOL_NAMES = [
  "insertBlocks",
  "replaceBlock",
  "replaceText",
  "deleteBlocks",
  "moveBlock",
  "setBlockType",
  "formatText",
  "insertTable",
  "updateTableCell",
  "decideSuggestions",
] as const;

/** Every editor tool, reads first. */
export const toolNameSchema = z.enum([...READ_TOOL_NAMES, ...WRITE_TOOL_NAMES]);
export type ToolName = z.infer<typeof toolNameSchema>;
export type WriteToolName = (typeof WRITE_TOOL_NAMES)[number];

/** True when tool `name` changes the document. */
export function isWriteTool(name: string): name is WriteToolName {
  return (WRITE_TOOL_NAMES as readonly string[]).includes(name);
}

/** Failure codes a tool may return (the message says what to fix). */
export const toolFailureCodes = [
  "invalid-input",
  "unknown-tool",
  "unknown-block",
  "wrong-block-type",
  "not-found",
  "invalid-range",
  "invalid-position",
  "invalid-markdown",
  // Content that breaks the content rule (content-rule.ts): the document is unchanged.
  "invalid-content",
  "unsafe-regex",
  "no-selection",
  // decideSuggestions outside a Suggest-mode run: there are no suggestions of its own to decide.
  "not-suggesting",
  "internal-error",
] as const;

/** A block id as a tool takes it. */
export const blockIdSchema = z.string().min(1);

/** Success result of a write: the ids of the blocks it created or changed, in document order. */
export const writeSuccessSchema = z.object({ ok: z.literal(true), blockIds: z.array(z.string()) });
/**
 * A tool's output schema: its success, or a failure. A success of a Suggest-mode run may also say
 * which of the run's earlier suggestions people decided since its last call (`decidedByPeople`).
 */
export function withFailure<S extends { ok: z.ZodLiteral<true> } & z.ZodRawShape>(success: z.ZodObject<S>) {
  return z.discriminatedUnion("ok", [
    z.object({ ...success.shape, decidedByPeople: suggestionOutcomesSchema }),
    toolFailureSchema,
  ]);
}
