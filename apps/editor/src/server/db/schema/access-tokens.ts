import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { userRef } from "./auth";
import { createdAt } from "./columns";

// Personal access tokens (server/auth/access-tokens.ts): only the SHA-256 of a token is kept, so
// the table alone lets nobody in. A revoked token's row is deleted; an account's go with it.
export const accessTokens = pgTable(
  "access_tokens",
  {
    id: text("id").primaryKey(),
    userId: userRef("user_id"),
    name: text("name").notNull(),
    /** The token's first characters, shown in the list to tell tokens apart. */
    prefix: text("prefix").notNull(),
    /** Hex SHA-256 of the whole token: a presented token is looked up by its hash. */
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [index("access_tokens_user_idx").on(t.userId)],
);
