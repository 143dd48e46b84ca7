// Suggestions: changes proposed in the shared document (by the agent in Suggest mode) that every
// co-editor sees and an owner or editor accepts or rejects, one by one or all at once.
import { z } from "zod";

/** Longest reason a write tool may give for its change (one sentence). */
export const MAX_SUGGESTION_REASON = 200;

/** Why a write tool made its change, shown beside the suggestion (optional on every write tool). */
export const suggestionReasonSchema = z
  .string()
  .max(MAX_SUGGESTION_REASON)
  .optional()
  .describe(
    "One sentence, at most 200 characters: why you make this change. Shown to the writers reviewing it.",
  );

/**
 * The suggestion a top-level block carries (Lexical NodeState "suggestion", synced like its text):
 * `inserted` — the block is proposed, `deleted` — the block is proposed for removal (shown struck
 * through). A replaced or moved block is a `deleted` old block and an `inserted` new one sharing
 * one `id`: they are decided together.
 */
export const blockSuggestionSchema = z.object({
  id: z.string().min(1).max(64),
  change: z.enum(["inserted", "deleted"]),
  /** Who proposed it: the writer's user id (an agent run proposes on its writer's behalf). */
  authorId: z.string().min(1).max(100),
  /** What the review shows as its author, e.g. "Coauthor for Alice". */
  authorName: z.string().min(1).max(120),
  runId: z.string().max(100).optional(),
  /**
   * On a `deleted` block that was replaced or moved: the id it had, which went to its new version
   * (the model addresses the block by it); rejecting gives it back.
   */
  restoreId: z.string().max(100).optional(),
  reason: z.string().max(MAX_SUGGESTION_REASON).optional(),
  /** The comment thread that asked for it (`@Coauthor`): accepting it resolves the thread. */
  threadId: z.string().min(1).max(64).optional(),
  /** When it was proposed (ms since the epoch). */
  at: z.number().finite(),
});
export type BlockSuggestion = z.infer<typeof blockSuggestionSchema>;

/** Accept makes the suggestion part of the document; reject takes it back. */
export const suggestionDecisionSchema = z.enum(["accept", "reject"]);
export type SuggestionDecision = z.infer<typeof suggestionDecisionSchema>;

/**
 * A person's decision on one of a run's suggestions, told to the run's model with the result of
 * its next tool call (so it does not propose a rejected change again, and builds on accepted ones).
 */
export const suggestionOutcomeSchema = z.object({
  decision: suggestionDecisionSchema,
  /** Who decided, as the review shows them. */
  by: z.string().min(1).max(120),
  /** The first block the suggestion held (its id as the run's result named it). */
  blockId: z.string().max(100).nullable(),
  /** What it proposed: the text it inserted, or else the text it deleted (at most 200 characters). */
  text: z.string().max(200),
});
export type SuggestionOutcome = z.infer<typeof suggestionOutcomeSchema>;

/** The outcomes a tool result carries: at most 50, the rest with the next call's. */
export const MAX_OUTCOMES_PER_RESULT = 50;

export const suggestionOutcomesSchema = z
  .array(suggestionOutcomeSchema)
  .max(MAX_OUTCOMES_PER_RESULT)
  .optional()
  .describe(
    "Your earlier suggestions that people accepted or rejected since your last tool call. Do not propose a rejected change again unless asked.",
  );

/** How many authors a block remembers: its first, and the latest others. */
export const MAX_BLOCK_AUTHORS = 8;

/**
 * Who wrote a top-level block (Lexical NodeState "writtenBy", synced like its text): a person, or
 * the agent for a person (with its run), from the agent's own edits and accepted suggestions; a
 * person who edits a block the agent wrote is added after it. Oldest first.
 */
export const blockAuthorSchema = z.object({
  authorId: z.string().min(1).max(100),
  /** As the document shows them, e.g. "Coauthor for Alice" or "Bob". */
  authorName: z.string().min(1).max(120),
  /** The agent's run that wrote it; none for a person. */
  runId: z.string().max(100).optional(),
});
export type BlockAuthor = z.infer<typeof blockAuthorSchema>;
export const blockAuthorsSchema = z.array(blockAuthorSchema).min(1).max(MAX_BLOCK_AUTHORS);
