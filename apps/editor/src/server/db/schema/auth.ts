import { relations } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";

// Accounts, sessions and request counters.

/** A required reference to a user; rows go when it goes. */
export const userRef = (name: string) =>
  text(name)
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

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

// Rate-limit counters (rate-limiter-flexible's points per key and window), shared by every
// instance: a request adds its point with one atomic upsert (server/http/rate-limit-store.ts).
export const rateLimitPoints = pgTable("rate_limit_points", {
  key: text("key").primaryKey(),
  points: integer("points").notNull(),
  expire: timestamp("expire", { withTimezone: true }),
});

// The links Better Auth follows in one statement (its `database.joins`: reading a session reads
// its user in the same query, on every authenticated request). Names are Better Auth's: `user`
// for one, the plural for many.
export const usersRelations = relations(users, ({ many }) => ({
  sessions: many(authSessions),
  accounts: many(authAccounts),
}));

export const authSessionsRelations = relations(authSessions, ({ one }) => ({
  user: one(users, { fields: [authSessions.userId], references: [users.id] }),
}));

export const authAccountsRelations = relations(authAccounts, ({ one }) => ({
  user: one(users, { fields: [authAccounts.userId], references: [users.id] }),
}));
