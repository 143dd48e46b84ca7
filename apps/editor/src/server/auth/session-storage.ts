import { redisStorage } from "@better-auth/redis-storage";
import type { SecondaryStorage } from "better-auth";
import IORedis from "ioredis";
import { LRUCache } from "lru-cache";
import { env } from "@/env";
import { redisName } from "@/server/redis-names";

/** Sessions (and the keys Better Auth keeps beside them) one process holds before it drops the least used. */
const MEMORY_SESSION_ENTRIES = 10_000;

/**
 * Where Better Auth keeps sessions besides the database, so that a request's session check costs
 * no database statement (every tool callback of a run makes one):
 * - in Redis when REDIS_URL is set: every instance reads and revokes the same entries;
 * - in this process's memory on the embedded database, which only this process opens;
 * - nowhere on PostgreSQL without Redis: instances there may be several, and one instance's
 *   memory would not hear another's sign-out.
 * The database stays the record (sessions and verification values are written to both): a
 * session missing here (dropped, expired from memory, or made before a restart) is read from the
 * database, and a sign-out deletes both.
 */
export function sessionStorage(): SecondaryStorage | undefined {
  if (env.REDIS_URL) {
    return redisStorage({ client: new IORedis(env.REDIS_URL), keyPrefix: redisName("coauthor:auth:") });
  }
  if (env.DATABASE_URL) return undefined;
  return memoryStorage(MEMORY_SESSION_ENTRIES);
}

// Better Auth's bookkeeping beside the sessions: a user's list of session tokens (what a sign-out
// everywhere deletes) and the time before which their sessions are revoked.
const BOOKKEEPING = /^(active-sessions-|revoked-sessions-before-)/;

/**
 * Better Auth's secondary storage in one process's memory: at most `entries` keys, each with its
 * TTL. `clock` (milliseconds) is for tests; the default is `performance`.
 */
export function memoryStorage(entries: number, clock?: { now(): number }): SecondaryStorage {
  const cache: LRUCache<string, string> = new LRUCache<string, string>({
    max: entries,
    // Each read checks the time afresh (no clock reading cached for a tick).
    ttlResolution: 0,
    ...(clock ? { perf: clock } : {}),
    // Without a user's list or revocation time, a revoked session still held here could be taken
    // for a live one: dropping either drops everything (what is not here is read from the database).
    disposeAfter: (_value, key, reason) => {
      if (reason === "evict" && BOOKKEEPING.test(key)) cache.clear();
    },
  });
  const ttlOptions = (ttlSeconds: number | undefined) =>
    ttlSeconds && ttlSeconds > 0 ? { ttl: ttlSeconds * 1000 } : {};
  return {
    get: (key) => cache.get(key) ?? null,
    getAndDelete: (key) => {
      const value = cache.get(key) ?? null;
      cache.delete(key);
      return value;
    },
    // A counter's TTL is set when it is made; later increments keep it (as Redis's INCR does).
    increment: (key, ttlSeconds) => {
      const current = cache.get(key);
      if (current === undefined) {
        cache.set(key, "1", ttlOptions(ttlSeconds));
        return 1;
      }
      const next = Number(current) + 1;
      const remaining = cache.getRemainingTTL(key);
      cache.set(key, String(next), Number.isFinite(remaining) ? { ttl: remaining } : {});
      return next;
    },
    set: (key, value, ttlSeconds) => {
      cache.set(key, value, ttlOptions(ttlSeconds));
    },
    delete: (key) => {
      cache.delete(key);
    },
  };
}
