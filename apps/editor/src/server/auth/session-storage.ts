import type { SecondaryStorage } from "better-auth";
import { LRUCache } from "lru-cache";
import { env } from "@/env";

/** Sessions (and the keys Better Auth keeps beside them) one process holds before it drops the least used. */
const MEMORY_SESSION_ENTRIES = 10_000;

/**
 * Where Better Auth keeps sessions besides the database, so that a request's session check costs
 * no database statement (every tool callback of a run makes one): this process's memory, on the
 * embedded database, which only this process opens. The database stays the record (sessions and
 * verification values are written to both): a session missing here (dropped, or made before a
 * restart) is read from the database, and a sign-out deletes both.
 *
 * Nowhere on PostgreSQL: instances there may be several, and one's memory would not hear another's
 * sign-out. Not Redis either: Better Auth writes a cached session back after reading it (a
 * refresh, a user update) without checking it was not deleted in between, so a sign-out racing
 * such a write could leave the session alive there; and a sign-out everywhere clears Redis after
 * its database commit, logging (not failing) when Redis refuses. Either would make revocation
 * less than immediate, so several instances read the session row.
 */
export function sessionStorage(): SecondaryStorage | undefined {
  return env.DATABASE_URL ? undefined : memoryStorage(MEMORY_SESSION_ENTRIES);
}

// Better Auth's bookkeeping beside the sessions: a user's list of session tokens (what a sign-out
// everywhere deletes) and the time before which their sessions are revoked.
const BOOKKEEPING = /^(active-sessions-|revoked-sessions-before-)/;
// Keys Better Auth may write again after deleting them: the bookkeeping and verification values
// (a new link for the same address). Any other key is a session, which never comes back.
const rewritable = (key: string) => BOOKKEEPING.test(key) || key.startsWith("verification:");
// How long a deleted session's key refuses writes: far longer than a write-back's read-to-write.
const DELETED_SESSION_MS = 60_000;
const deletedMark = (key: string) => `deleted:${key}`;

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
  /**
   * Deletes `key`; a session's key then refuses writes for a while: Better Auth may be writing
   * back a copy it read just before (a refresh), which would bring the ended session back.
   */
  const remove = (key: string) => {
    cache.delete(key);
    if (!rewritable(key)) cache.set(deletedMark(key), "", { ttl: DELETED_SESSION_MS });
  };
  return {
    get: (key) => cache.get(key) ?? null,
    getAndDelete: (key) => {
      const value = cache.get(key) ?? null;
      remove(key);
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
      if (cache.has(deletedMark(key))) return;
      cache.set(key, value, ttlOptions(ttlSeconds));
    },
    delete: remove,
  };
}
