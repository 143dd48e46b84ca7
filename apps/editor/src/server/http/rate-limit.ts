import IORedis from "ioredis";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { env } from "@/env";
import { getDb } from "@/server/db";
import { redisName } from "@/server/redis-names";
import { apiError } from "./errors";
import { RateLimiterAppDatabase } from "./rate-limit-store";

/** What is rate limited: runs, tool callbacks and chat per user; sign-in and sign-up per client address. */
export type LimitedAction = "runs" | "callbacks" | "chat" | "auth";

const perMinute: Record<LimitedAction, () => number> = {
  runs: () => env.RATE_LIMIT_RUNS_PER_MINUTE,
  callbacks: () => env.RATE_LIMIT_CALLBACKS_PER_MINUTE,
  chat: () => env.RATE_LIMIT_CHAT_PER_MINUTE,
  auth: () => env.AUTH_RATE_LIMIT_PER_MINUTE,
};

const LIMITERS = Symbol.for("coauthor.rate-limiters");
type Holder = typeof globalThis & { [LIMITERS]?: Map<LimitedAction, Promise<RateLimiterAbstract>> };

/**
 * The limiter of `action` (rate-limiter-flexible: so many points per 60-second window and key),
 * one per process, counting where every instance sees the same total: in Redis when REDIS_URL is
 * set, else in PostgreSQL (DATABASE_URL); both count atomically. On embedded PGlite there is one
 * process, so the counts stay in its memory: a database write less on every request (a tool
 * callback's round trip among them). They start again from zero when the server restarts.
 */
function limiter(action: LimitedAction): Promise<RateLimiterAbstract> {
  const holder = globalThis as Holder;
  holder[LIMITERS] ??= new Map();
  const limiters = holder[LIMITERS];
  let made = limiters.get(action);
  if (!made) {
    const options = { keyPrefix: `coauthor:rate:${action}`, points: perMinute[action](), duration: 60 };
    made = env.REDIS_URL
      ? Promise.resolve(
          new RateLimiterRedis({
            ...options,
            keyPrefix: redisName(options.keyPrefix),
            storeClient: new IORedis(env.REDIS_URL),
          }),
        )
      : env.DATABASE_URL
        ? getDb().then((db) => new RateLimiterAppDatabase(db, options))
        : Promise.resolve(new RateLimiterMemory(options));
    // A limiter that could not be made is made again next time (the caller still gets the error).
    made.catch(() => limiters.delete(action));
    limiters.set(action, made);
  }
  return made;
}

/**
 * Counts one `action` for `key` (a user id, or a client address for `auth`). Returns a 429 with
 * Retry-After once the key has used up its minute, else null.
 */
export async function rateLimit(key: string, action: LimitedAction): Promise<Response | null> {
  try {
    await (await limiter(action)).consume(key);
    return null;
  } catch (outcome) {
    // The library rejects with its result when the limit is reached, and with an Error when the store failed.
    if (!(outcome instanceof RateLimiterRes)) throw outcome;
    const retryAfter = Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
    return apiError(429, `rate_limited:${action}`, `too many requests; retry in ${retryAfter} s`, {
      "Retry-After": String(retryAfter),
    });
  }
}
