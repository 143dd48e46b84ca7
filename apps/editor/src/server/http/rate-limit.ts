import { and, count, eq, gt, sql } from "drizzle-orm";
import { env } from "@/env";
import { getDb } from "@/server/db";
import { rateLimits, runs } from "@/server/db/schema";
import { apiError } from "./errors";

// A run still marked running after this long died without saying so; it no longer counts.
const RUN_STALE_MS = 15 * 60_000;

export type LimitedAction = "runs" | "callbacks" | "chat";

const limits: Record<LimitedAction, () => number> = {
  runs: () => env.RATE_LIMIT_RUNS_PER_MINUTE,
  callbacks: () => env.RATE_LIMIT_CALLBACKS_PER_MINUTE,
  chat: () => env.RATE_LIMIT_CHAT_PER_MINUTE,
};

/**
 * Takes one token of `action` from `userId`'s bucket, atomically in the
 * database (so the limit holds across instances). The bucket holds the
 * per-minute limit and refills continuously. Returns a 429 with Retry-After
 * when it is empty, else null.
 */
export async function rateLimit(userId: string, action: LimitedAction): Promise<Response | null> {
  const db = await getDb();
  const capacity = limits[action]();
  const perSecond = capacity / 60;
  const now = new Date();
  const refilled = sql`least(${capacity}::double precision, ${rateLimits.tokens} + extract(epoch from (${now.toISOString()}::timestamptz - ${rateLimits.updatedAt})) * ${perSecond})`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key: `${action}:${userId}`, tokens: capacity - 1, updatedAt: now, allowed: true })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        tokens: sql`case when ${refilled} >= 1 then ${refilled} - 1 else ${refilled} end`,
        allowed: sql`${refilled} >= 1`,
        updatedAt: now,
      },
    })
    .returning({ tokens: rateLimits.tokens, allowed: rateLimits.allowed });
  if (!row || row.allowed) return null;
  const retryAfter = Math.max(1, Math.ceil((1 - row.tokens) / perSecond));
  return apiError(429, `rate_limited:${action}`, `too many requests; retry in ${retryAfter} s`, {
    "Retry-After": String(retryAfter),
  });
}

/** A 429 when the user or the document already has as many runs going as allowed, else null. */
export async function concurrentRunLimit(userId: string, documentId: string): Promise<Response | null> {
  const db = await getDb();
  const live = and(eq(runs.status, "running"), gt(runs.createdAt, new Date(Date.now() - RUN_STALE_MS)));
  const [[byUser], [byDocument]] = await Promise.all([
    db
      .select({ n: count() })
      .from(runs)
      .where(and(live, eq(runs.userId, userId))),
    db
      .select({ n: count() })
      .from(runs)
      .where(and(live, eq(runs.documentId, documentId))),
  ]);
  if ((byUser?.n ?? 0) >= env.MAX_CONCURRENT_RUNS_PER_USER) {
    return apiError(429, "rate_limited:concurrent_runs", "you have too many runs going; stop one first", {
      "Retry-After": "5",
    });
  }
  if ((byDocument?.n ?? 0) >= env.MAX_CONCURRENT_RUNS_PER_DOCUMENT) {
    return apiError(429, "rate_limited:document_runs", "this document has too many runs going", {
      "Retry-After": "5",
    });
  }
  return null;
}
