import { RUN_STATUSES } from "@coauthor/types";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });
/** A required reference to a user or a document; rows go when it goes. */
const userRef = (name: string) =>
  text(name)
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });
const documentRef = (name: string) =>
  text(name)
    .notNull()
    .references(() => documents.id, { onDelete: "cascade" });

// Better Auth's `user` model is this table (src/server/auth/auth.ts maps it),
// so documents and runs keep their foreign keys. `email` is nullable only
// because rows from before sign-in existed have none; Better Auth always sets it.
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  ...timestamps(),
});

// Better Auth's sessions: one row per signed-in browser; deleting a user's
// rows signs them out everywhere.
export const authSessions = pgTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: userRef("user_id"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    ...timestamps(),
  },
  (t) => [index("auth_sessions_user_idx").on(t.userId)],
);

// Better Auth's accounts: the email+password credential (hashed) and each
// linked OAuth identity.
export const authAccounts = pgTable(
  "auth_accounts",
  {
    id: text("id").primaryKey(),
    userId: userRef("user_id"),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    ...timestamps(),
  },
  (t) => [index("auth_accounts_user_idx").on(t.userId)],
);

// Better Auth's short-lived values (OAuth state, email verification).
export const authVerifications = pgTable(
  "auth_verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...timestamps(),
  },
  (t) => [index("auth_verifications_identifier_idx").on(t.identifier)],
);

/** Binary columns (Yjs updates): drizzle's pg-core has no bytea builder. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  // postgres.js sends a Buffer as bytea (a plain Uint8Array would go as text); PGlite takes either.
  toDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
  fromDriver: (value) => new Uint8Array(value),
});

// The Yjs document is the content: `yjs_snapshot` (a compacted Yjs update) plus
// the rows of `document_updates` newer than it. `content` is the Lexical JSON of
// documents saved before collaboration; it is converted into a snapshot once, on
// first load, and never written again. `last_good_snapshot` is the latest state
// that loaded and converted cleanly (kept at creation and compaction,
// src/server/collab/last-good.ts); `damaged_at` is set while the stored state
// fails to load, until the owner restores the last good one.
export const documents = pgTable(
  "documents",
  {
    id: text("id").primaryKey(),
    ownerId: userRef("owner_id"),
    title: text("title").notNull(),
    content: jsonb("content"),
    yjsSnapshot: bytea("yjs_snapshot"),
    lastGoodSnapshot: bytea("last_good_snapshot"),
    lastGoodAt: timestamp("last_good_at", { withTimezone: true }),
    damagedAt: timestamp("damaged_at", { withTimezone: true }),
    version: integer("version").notNull().default(0),
    ...timestamps(),
  },
  (t) => [index("documents_owner_idx").on(t.ownerId, t.updatedAt)],
);

// The update log: every Yjs update the sync server receives, appended as it
// arrives (so a crash loses nothing received); folded into the snapshot from
// time to time (src/server/collab/update-log.ts).
export const documentUpdates = pgTable(
  "document_updates",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    documentId: documentRef("document_id"),
    update: bytea("update").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("document_updates_document_idx").on(t.documentId, t.id)],
);

// The stored state a restore replaced (the damaged snapshot and log, exactly as they were), for an
// operator to inspect; it goes with its document.
export const damagedDocumentCopies = pgTable(
  "damaged_document_copies",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    documentId: documentRef("document_id"),
    snapshot: bytea("snapshot"),
    /** The update log's entries, oldest first, each base64-encoded. */
    updates: jsonb("updates").$type<string[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("damaged_document_copies_document_idx").on(t.documentId)],
);

// Who else may open a document, and how: "editor" (edit, run the agent) or
// "viewer" (read, chat). The owner is `documents.owner_id`, never a row here.
export const documentMembers = pgTable(
  "document_members",
  {
    documentId: documentRef("document_id"),
    userId: userRef("user_id"),
    role: text("role", { enum: ["editor", "viewer"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.userId] }), index("document_members_user_idx").on(t.userId)],
);

export const runs = pgTable(
  "agent_runs",
  {
    id: text("id").primaryKey(),
    documentId: documentRef("document_id"),
    userId: userRef("user_id"),
    prompt: text("prompt").notNull(),
    model: text("model").notNull(),
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

// One row per accepted hook token: the jti is claimed once, atomically,
// before the workflow is resumed (resumeHook is not idempotent). The result holds what the tool
// read (a readDocument result is the document's text), so the row goes with its run, and the
// run with its document.
export const hookTokenUses = pgTable(
  "hook_token_uses",
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
  (t) => [uniqueIndex("hook_token_uses_call_idx").on(t.runId, t.toolCallId)],
);

// Rate-limit counters (rate-limiter-flexible's points per key and window), shared by every
// instance: a request adds its point with one atomic upsert (server/http/rate-limit-store.ts).
export const rateLimitPoints = pgTable("rate_limit_points", {
  key: text("key").primaryKey(),
  points: integer("points").notNull(),
  expire: timestamp("expire", { withTimezone: true }),
});

// The turns step's progress per run (the tool call it waits for, its ids and
// counters), saved after every model turn; the conversation it built so far is
// appended to agent_run_messages rather than rewritten each time.
export const agentRunCheckpoints = pgTable("agent_run_checkpoints", {
  runId: text("run_id").primaryKey(),
  segment: integer("segment").notNull(),
  state: jsonb("state").notNull(),
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
