import { createHash, randomBytes } from "node:crypto";
import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_SHOWN_CHARS,
  type AccessTokenCreateInput,
  type AccessTokenSummary,
  accessTokenSchema,
} from "@coauthor/types";
import { and, count, desc, eq, gt } from "drizzle-orm";
import { getDb } from "@/server/db";
import { accessTokens } from "@/server/db/schema";

// Personal access tokens: 32 random bytes behind a recognisable prefix. Only their SHA-256 is
// stored (a fast hash is enough for 256 random bits: there is nothing to guess), so the token is
// shown once, when it is made. A token only says who the caller is: the routes that take one
// (server/agent/authorize.ts) check the writer's rights on each document as for a session.

/** More would be a leak waiting to happen, not a need: one per script or machine is plenty. */
export const MAX_ACCESS_TOKENS_PER_USER = 50;

const DAY_MS = 24 * 60 * 60 * 1000;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

const summaryColumns = {
  id: accessTokens.id,
  name: accessTokens.name,
  prefix: accessTokens.prefix,
  createdAt: accessTokens.createdAt,
  expiresAt: accessTokens.expiresAt,
  lastUsedAt: accessTokens.lastUsedAt,
};

/** Makes a token for the user: the token itself (to show once) and its summary; null past the cap. */
export async function createAccessToken(userId: string, input: AccessTokenCreateInput) {
  const db = await getDb();
  const [held] = await db.select({ n: count() }).from(accessTokens).where(eq(accessTokens.userId, userId));
  if ((held?.n ?? 0) >= MAX_ACCESS_TOKENS_PER_USER) return null;
  const token = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const [summary] = await db
    .insert(accessTokens)
    .values({
      id: crypto.randomUUID(),
      userId,
      name: input.name,
      prefix: token.slice(0, ACCESS_TOKEN_SHOWN_CHARS),
      tokenHash: hashOf(token),
      expiresAt: new Date(Date.now() + input.expiresInDays * DAY_MS),
    })
    .returning(summaryColumns);
  if (!summary) throw new Error("access token insert returned no row");
  return { token, summary: summaryOf(summary) };
}

/** The user's tokens, newest first, expired ones included (until revoked) so the list explains a 401. */
export async function listAccessTokens(userId: string): Promise<AccessTokenSummary[]> {
  const db = await getDb();
  const rows = await db
    .select(summaryColumns)
    .from(accessTokens)
    .where(eq(accessTokens.userId, userId))
    .orderBy(desc(accessTokens.createdAt));
  return rows.map(summaryOf);
}

type SummaryRow = Pick<
  typeof accessTokens.$inferSelect,
  "id" | "name" | "prefix" | "createdAt" | "expiresAt" | "lastUsedAt"
>;

/** A row as the wire has it: times as ISO strings (tRPC sends JSON as is). */
function summaryOf(row: SummaryRow): AccessTokenSummary {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** Revokes (deletes) one of the user's tokens; false when they have none with this id. */
export async function revokeAccessToken(userId: string, id: string): Promise<boolean> {
  const db = await getDb();
  const deleted = await db
    .delete(accessTokens)
    .where(and(eq(accessTokens.id, id), eq(accessTokens.userId, userId)))
    .returning({ id: accessTokens.id });
  return deleted.length > 0;
}

/**
 * The user a presented token belongs to, or null (malformed, unknown, revoked or expired). One
 * statement checks it and records its use, so a token revoked a moment ago is refused at once.
 */
export async function userOfAccessToken(token: string): Promise<string | null> {
  if (!accessTokenSchema.safeParse(token).success) return null;
  const db = await getDb();
  const [row] = await db
    .update(accessTokens)
    .set({ lastUsedAt: new Date() })
    .where(and(eq(accessTokens.tokenHash, hashOf(token)), gt(accessTokens.expiresAt, new Date())))
    .returning({ userId: accessTokens.userId });
  return row?.userId ?? null;
}
