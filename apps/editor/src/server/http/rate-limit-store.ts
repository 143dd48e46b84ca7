import { sql } from "drizzle-orm";
import { RateLimiterRes } from "rate-limiter-flexible";
import RateLimiterStoreAbstract from "rate-limiter-flexible/lib/RateLimiterStoreAbstract.js";
import type { Database } from "@/server/db";
import { rateLimitPoints } from "@/server/db/schema";

/** A key's counter as the store returns it. */
interface StoredPoints {
  points: number;
  expire: Date | null;
}

/**
 * rate-limiter-flexible's store on the app's own database (PGlite or PostgreSQL, through Drizzle).
 * The library keeps the limiting logic (windows, blocking, the 429 answer's timing); this class
 * only counts. Why not its `RateLimiterPostgres`: it needs a `pg` client, and the app speaks
 * `postgres` (PostgreSQL) and PGlite. Why not its `RateLimiterDrizzle`: it imports `drizzle-orm`
 * by a name built at run time, which the Next bundle cannot see, and whose copy need not be ours.
 * The count is one `INSERT … ON CONFLICT DO UPDATE`: PostgreSQL takes the key's row lock for
 * it, so parallel requests on any number of instances each see their own, exact total.
 */
export class RateLimiterAppDatabase extends RateLimiterStoreAbstract {
  private readonly db: Database;

  constructor(db: Database, options: { keyPrefix: string; points: number; duration: number }) {
    super({ ...options, storeClient: db });
    this.db = db;
  }

  /** Adds `points` to the key's window (a fresh window when the stored one expired), atomically. */
  async _upsert(
    rlKey: string,
    points: number,
    msDuration: number,
    forceExpire = false,
  ): Promise<StoredPoints> {
    // The app's clock, as the library's own stores use: msBeforeNext is computed against it.
    const now = new Date();
    const expire = msDuration > 0 ? new Date(now.getTime() + msDuration) : null;
    const expiresAt = sql`${expire?.toISOString() ?? null}::timestamptz`;
    const expired = sql`${rateLimitPoints.expire} <= ${now.toISOString()}::timestamptz`;
    const [row] = await this.db
      .insert(rateLimitPoints)
      .values({ key: rlKey, points, expire })
      .onConflictDoUpdate({
        target: rateLimitPoints.key,
        set: forceExpire
          ? { points, expire }
          : {
              points: sql`case when ${expired} then ${points} else ${rateLimitPoints.points} + ${points} end`,
              expire: sql`case when ${expired} then ${expiresAt} else ${rateLimitPoints.expire} end`,
            },
      })
      .returning({ points: rateLimitPoints.points, expire: rateLimitPoints.expire });
    if (!row) throw new Error(`rate limit counter ${rlKey} was not written`);
    return row;
  }

  /** The key's counter in its current window, or null. */
  async _get(rlKey: string): Promise<StoredPoints | null> {
    const [row] = await this.db
      .select({ points: rateLimitPoints.points, expire: rateLimitPoints.expire })
      .from(rateLimitPoints)
      .where(
        sql`${rateLimitPoints.key} = ${rlKey} and (${rateLimitPoints.expire} is null or ${rateLimitPoints.expire} > ${new Date().toISOString()}::timestamptz)`,
      );
    return row ?? null;
  }

  /** Forgets the key; whether it was there. */
  async _delete(rlKey: string): Promise<boolean> {
    const rows = await this.db
      .delete(rateLimitPoints)
      .where(sql`${rateLimitPoints.key} = ${rlKey}`)
      .returning({ key: rateLimitPoints.key });
    return rows.length > 0;
  }

  /** The library's view of a stored counter. */
  _getRateLimiterRes(_rlKey: string, changedPoints: number, stored: StoredPoints): RateLimiterRes {
    const msBeforeNext = stored.expire ? Math.max(stored.expire.getTime() - Date.now(), 0) : -1;
    return new RateLimiterRes(
      Math.max(this.points - stored.points, 0),
      msBeforeNext,
      stored.points,
      stored.points === changedPoints,
    );
  }
}
