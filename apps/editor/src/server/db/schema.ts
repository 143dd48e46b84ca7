import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

// Content is the Lexical editor state (JSON). `version` increments per save;
// a Yjs update log can sit beside it when collaboration lands.
export const documents = pgTable(
  "documents",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    content: jsonb("content"),
    version: integer("version").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("documents_owner_idx").on(t.ownerId, t.updatedAt)],
);

export const runs = pgTable(
  "agent_runs",
  {
    id: text("id").primaryKey(),
    documentId: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    prompt: text("prompt").notNull(),
    model: text("model").notNull(),
    status: text("status").notNull().default("running"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("agent_runs_document_idx").on(t.documentId, t.createdAt)],
);

// One row per accepted hook token: the jti is claimed once, atomically,
// before the workflow is resumed (resumeHook is not idempotent).
export const hookTokenUses = pgTable(
  "hook_token_uses",
  {
    jti: text("jti").primaryKey(),
    runId: text("run_id").notNull(),
    toolCallId: text("tool_call_id").notNull(),
    bodyHash: text("body_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("hook_token_uses_call_idx").on(t.runId, t.toolCallId)],
);

// Token buckets per user and action, shared by every instance: `tokens`
// refill continuously up to the per-minute limit; a request takes one.
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  tokens: doublePrecision("tokens").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  allowed: boolean("allowed").notNull(),
});
