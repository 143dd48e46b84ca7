import { RUN_STATUSES } from "@coauthor/types";
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { userRef } from "./auth";
import { createdAt, timestamps, updatedAt } from "./columns";
import { documentRef, documents } from "./documents";

// Agent runs (their logs, edits, leases, checkpoints), the assistant conversation and recipes.

export const runs = pgTable(
  "agent_runs",
  {
    id: text("id").primaryKey(),
    documentId: documentRef("document_id"),
    userId: userRef("user_id"),
    prompt: text("prompt").notNull(),
    model: text("model").notNull(),
    /** How the run's writes land ("direct" or "suggest"), as the writer's panel last said. */
    editMode: text("edit_mode", { enum: ["direct", "suggest"] })
      .notNull()
      .default("direct"),
    /**
     * Who executes the run's tool calls: "tab" (the writer's tab that holds the run's lease, the
     * server standing in when none does) or "server" (a run in the background: the server from its
     * first call, and no tab takes over).
     */
    executor: text("executor", { enum: ["tab", "server"] })
      .notNull()
      .default("tab"),
    /** The comment thread the run answers (it was asked there, with `@Coauthor`), if any. */
    threadId: text("thread_id"),
    /** One of `RUN_STATUSES` (packages/types): checked by the database too. */
    status: text("status", { enum: RUN_STATUSES }).notNull().default("running"),
    /** Error code or finish summary, once the run ended. */
    summary: text("summary"),
    /**
     * The whole conversation (model messages, tool calls and results) of a run that ended at a
     * limit or its time limit, which Continue resumes; cleared with the run's log.
     */
    conversation: jsonb("conversation"),
    toolCalls: integer("tool_calls").notNull().default(0),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    /** Input tokens the provider's prompt cache served, and those written to it. */
    cachedInputTokens: integer("cached_input_tokens").notNull().default(0),
    cacheWriteTokens: integer("cache_write_tokens").notNull().default(0),
    /** What the run cost in millionths of a US dollar (null: its model has no price). */
    costMicroUsd: bigint("cost_micro_usd", { mode: "number" }),
    createdAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** When the retention sweep removed the run's log (events, tool results, streams); its summary stays. */
    logsPurgedAt: timestamp("logs_purged_at", { withTimezone: true }),
  },
  (t) => [
    index("agent_runs_document_idx").on(t.documentId, t.createdAt),
    check(
      "agent_runs_status_check",
      sql.raw(`status in (${RUN_STATUSES.map((status) => `'${status}'`).join(", ")})`),
    ),
    check("agent_runs_edit_mode_check", sql`edit_mode in ('direct', 'suggest')`),
    check("agent_runs_executor_check", sql`executor in ('tab', 'server')`),
  ],
);

// A run's edits (RunEdits from @coauthor/types), saved by the tab that runs its tools as they
// land, so "Undo run" works after a reload and on another day.
export const runEdits = pgTable("agent_run_edits", {
  runId: text("run_id")
    .primaryKey()
    .references(() => runs.id, { onDelete: "cascade" }),
  edits: jsonb("edits").notNull(),
  updatedAt: updatedAt(),
});

// Which tab executes a run's tool calls: with the document open in several tabs or devices,
// exactly one of them holds the lease (renewed while it follows the run); another takes over
// once it expires. With Yjs an edit run twice would land twice in every copy.
export const runLeases = pgTable("agent_run_leases", {
  runId: text("run_id")
    .primaryKey()
    .references(() => runs.id, { onDelete: "cascade" }),
  tabId: text("tab_id").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

// Which server process runs a run's turns step (its owner lease, renewed while the step runs): a
// redelivered step waits for it, and an expired one marks a dead owner (see step-leases.ts).
export const stepLeases = pgTable("agent_step_leases", {
  runId: text("run_id")
    .primaryKey()
    .references(() => runs.id, { onDelete: "cascade" }),
  owner: text("owner").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

// Postgres world: each instance's job slots (WORKFLOW_POSTGRES_WORKER_CONCURRENCY) and the ids of
// its job runner's live workers, renewed while it lives (workflow/job-capacity.ts). The slots' sum
// is how many steps the deployment runs at once: a run admitted past it would wait, silent, for a
// slot, so admission refuses it instead. A job locked by a worker no instance names is an orphan
// (workflow/orphaned-steps.ts).
export const instanceJobSlots = pgTable("instance_job_slots", {
  instanceId: text("instance_id").primaryKey(),
  slots: integer("slots").notNull(),
  workers: text("workers").array().notNull().default(sql`'{}'::text[]`),
  seenAt: timestamp("seen_at", { withTimezone: true }).notNull(),
});

// The assistant conversation of one user on one document (chat and agent
// turns), kept on the server so it survives reloads and devices.
export const conversationMessages = pgTable(
  "conversation_messages",
  {
    id: text("id").primaryKey(),
    documentId: documentRef("document_id"),
    userId: userRef("user_id"),
    role: text("role").notNull(),
    mode: text("mode").notNull(),
    content: text("content").notNull(),
    runId: text("run_id"),
    createdAt: createdAt(),
  },
  (t) => [index("conversation_messages_document_idx").on(t.documentId, t.userId, t.createdAt)],
);

// A tool call's result, recorded once with its hook token's claim: the token's jti is the key, so
// a second result for it is refused (the same body again is a replay), and the turns step reads
// the result from here. It holds what the tool read (a readDocument result is the document's
// text), so the row goes with its run, and the run with its document.
export const toolCallResults = pgTable(
  "tool_call_results",
  {
    jti: text("jti").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    toolCallId: text("tool_call_id").notNull(),
    bodyHash: text("body_hash").notNull(),
    /** The tool result delivered with this token: the run's step reads it from here. */
    result: jsonb("result"),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("tool_call_results_call_idx").on(t.runId, t.toolCallId)],
);

// The turns step's progress per run (the tool call it waits for, its ids and
// counters), saved after every model turn; the conversation it built so far is
// appended to agent_run_messages rather than rewritten each time.
export const agentRunCheckpoints = pgTable("agent_run_checkpoints", {
  runId: text("run_id").primaryKey(),
  segment: integer("segment").notNull(),
  state: jsonb("state").notNull(),
  // A planning agent's plan decision for the segment: written once with its first state and left
  // alone by the segment's later saves (several a tool call), which would otherwise rewrite it.
  planning: jsonb("planning"),
  updatedAt: updatedAt(),
});

export const agentRunMessages = pgTable(
  "agent_run_messages",
  {
    runId: text("run_id").notNull(),
    segment: integer("segment").notNull(),
    seq: integer("seq").notNull(),
    message: jsonb("message").notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.segment, t.seq] })],
);

// Runs whose document was deleted (ids only, no content). Their workflow data is purged at the
// deletion and again by the retention sweep until the row expires, which catches a frame a step
// still wrote on its way out; a step that is still going reads its run as stopped from here.
// (The turns step's checkpoint tables above have no foreign key: a run's first checkpoint may be
// written before the admission transaction records the run.)
export const deletedRuns = pgTable("deleted_runs", {
  runId: text("run_id").primaryKey(),
  deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull().defaultNow(),
});

// Pipeline recipes writers wrote (the built-in ones live in code): the definition as its author
// wrote it (YAML or JSON, validated before it is stored). Personal (no document) or shared with
// everyone who can open one document.
export const recipes = pgTable(
  "recipes",
  {
    id: text("id").primaryKey(),
    ownerId: userRef("owner_id"),
    documentId: text("document_id").references(() => documents.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    definition: text("definition").notNull(),
    ...timestamps(),
  },
  (t) => [index("recipes_owner_idx").on(t.ownerId), index("recipes_document_idx").on(t.documentId)],
);
