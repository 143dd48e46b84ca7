import { z } from "zod";
import { runModeSchema } from "./events.ts";

/** Prompt length cap shared by the agent and chat routes. */
export const MAX_PROMPT_CHARS = 20_000;

/** A prior turn of the conversation sent with a new prompt. */
export const chatMessageSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string().max(100_000),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** The selection at the time of the prompt, as context for the model. */
export const selectionContextSchema = z.object({
  text: z.string().max(50_000),
  blockIds: z.array(z.string()).max(1_000),
});

/** Body of `POST /api/llm/agent`. */
/**
 * How a run's writes land: "direct" edits the document, "suggest" proposes each edit as a
 * suggestion to accept or reject (docs/suggestions.md). The writer's panel sends it with the run
 * and with each lease renewal, so a server executing the run's calls (no tab there) honours it.
 */
export const editModeSchema = z.enum(["direct", "suggest"]);
export type EditMode = z.infer<typeof editModeSchema>;

export const agentRunRequestSchema = z.object({
  documentId: z.string().min(1).max(100),
  prompt: z.string().trim().min(1, "prompt is empty").max(MAX_PROMPT_CHARS),
  messages: z.array(chatMessageSchema).max(200).default([]),
  mode: z.literal("agent").default("agent"),
  model: z.string().max(200).optional(),
  selection: selectionContextSchema.optional(),
  /**
   * Continue this earlier run (one of the writer's own on the document that stopped at a limit or
   * ran out of time): the new run starts with that run's whole conversation, tool calls included.
   */
  continueRunId: z.string().min(1).max(200).optional(),
  /** Run this recipe (a pipeline: built in, or one the caller may see on this document). */
  recipeId: z.string().min(1).max(100).optional(),
  editMode: editModeSchema.default("direct"),
  /**
   * Run in the background: the server executes the run's tool calls from the first one, on the
   * live document, and no tab takes them; the writer may close the tab.
   */
  background: z.boolean().default(false),
});
export type AgentRunRequest = z.infer<typeof agentRunRequestSchema>;

/** Body of `POST /api/llm/stream` (chat mode: read-only). */
export const chatRequestSchema = z.object({
  documentId: z.string().min(1).max(100),
  prompt: z.string().trim().min(1, "prompt is empty").max(MAX_PROMPT_CHARS),
  messages: z.array(chatMessageSchema).max(200).default([]),
  mode: runModeSchema.extract(["chat"]).default("chat"),
  model: z.string().max(200).optional(),
  selection: selectionContextSchema.optional(),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** Largest callback body the server reads. */
export const MAX_CALLBACK_BYTES = 1024 * 1024;

/** Body of `POST /api/llm/agent/callback`. */
export const toolCallbackBodySchema = z.object({
  hookToken: z.string().min(1).max(4_000),
  toolCallId: z.string().min(1).max(200),
  result: z.unknown(),
});
export type ToolCallbackBody = z.infer<typeof toolCallbackBodySchema>;

/** Claims of the signed hook token (spec §3.2). */
export const hookTokenClaimsSchema = z.object({
  runId: z.string(),
  toolCallId: z.string(),
  userId: z.string(),
  documentId: z.string(),
  toolName: z.string(),
  /**
   * When the waiting step stops waiting (epoch ms): a result after it is refused as late (410).
   * Optional only for tokens signed before the claim existed (a rolling restart); those are judged
   * by `exp` alone.
   */
  deadline: z.number().int().nonnegative().optional(),
  jti: z.string(),
  iat: z.number(),
  exp: z.number(),
  aud: z.string(),
});
export type HookTokenClaims = z.infer<typeof hookTokenClaimsSchema>;

/** A typed HTTP error body: `code` is `<kind>:<surface>` (e.g. `forbidden:document`). */
export const apiErrorSchema = z.object({ code: z.string(), message: z.string() });
export type ApiError = z.infer<typeof apiErrorSchema>;

/** A model the server allows, as listed in the panel. */
export const modelInfoSchema = z.object({ id: z.string(), label: z.string(), offline: z.boolean() });
export type ModelInfo = z.infer<typeof modelInfoSchema>;

/** Body of `POST /api/llm/agent/:runId/lease`: the tab asking to execute the run's tool calls. */
export const runLeaseRequestSchema = z.object({
  tabId: z
    .string()
    .min(8)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, "tabId: letters, digits, _ and - only"),
  /** Let go of the lease (the tab is closing or stops following). */
  release: z.boolean().default(false),
  /** The writer's edit mode now (they may switch it mid-run): what the server executes with. */
  editMode: editModeSchema.optional(),
});
export type RunLeaseRequest = z.infer<typeof runLeaseRequestSchema>;

/** Answer of `POST /api/llm/agent/:runId/lease`. */
export const runLeaseAnswerSchema = z.object({
  granted: z.boolean(),
  /** How long the lease holds without a renewal. */
  ttlMs: z.number().int().positive(),
});
export type RunLeaseAnswer = z.infer<typeof runLeaseAnswerSchema>;

/** Input of `documents.damage`: the document. */
export const documentDamageInputSchema = z.object({ id: z.string().min(1).max(100) });
export type DocumentDamageInput = z.infer<typeof documentDamageInputSchema>;

/**
 * Input of `documents.restoreLastGood` and `documents.lastGoodMarkdown`: the document, and the
 * version to go back to (absent: the last good state `documents.damage` offers).
 */
export const lastGoodInputSchema = documentDamageInputSchema.extend({
  versionId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});
export type LastGoodInput = z.infer<typeof lastGoodInputSchema>;

/**
 * What `documents.damage` answers: whether the stored state fails to load, and the last good state
 * it can go back to — the newest version that reads, or the state kept when it last opened cleanly.
 */
export const documentDamageSchema = z.object({
  damaged: z.boolean(),
  /** ISO time of the last good state; null when there is none (nothing to restore). */
  lastGoodAt: z.iso.datetime().nullable(),
  /** The version the last good state is, when it is one (null: the state kept as it last opened). */
  lastGoodVersion: z.object({ id: z.number().int().positive(), label: z.string() }).nullable(),
});
export type DocumentDamage = z.infer<typeof documentDamageSchema>;
