// The owner lease on a run's turns step. On the Postgres world a step can be delivered again while
// its first execution still runs (an instance that froze, a job unlocked by the orphan sweep, a
// retry): two executions at once would announce the same tool calls and write the same frames
// twice. Whoever runs the step holds a lease row (owner + expiry, renewed while the step runs); a
// second executor waits until the owner lets go or the lease expires (the owner died: nobody
// renewed it), then takes over from the step's checkpoint. The app plugs in its database
// (`configureStepLeases`); without one, a process-local table serves (one process: the local world).
// Kept on globalThis because Next bundles route handlers and workflow steps apart.

import { randomUUID } from "node:crypto";
import { log } from "./log.ts";

/** Who holds a lease now (when it is not the caller). */
export interface LeaseHolder {
  owner: string;
  /** Milliseconds until the lease expires unless renewed. */
  expiresInMs: number;
}

/** Where leases live. Every call is one atomic statement: two owners can never both hold a key. */
export interface StepLeaseStore {
  /** Takes the lease when free, expired or already ours; otherwise says who holds it. */
  acquire(
    key: string,
    owner: string,
    ttlMs: number,
  ): Promise<{ acquired: true } | { acquired: false; holder: LeaseHolder }>;
  /** Extends our lease; false when it is no longer ours (it expired and another owner took it). */
  renew(key: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Lets go of our lease (nothing when another owner holds it). */
  release(key: string, owner: string): Promise<void>;
}

/** A process-local store (tests; one process, where nothing else can run the step). */
export function memoryStepLeaseStore(now: () => number = Date.now): StepLeaseStore {
  const leases = new Map<string, { owner: string; expiresAt: number }>();
  return {
    async acquire(key, owner, ttlMs) {
      const held = leases.get(key);
      if (held && held.owner !== owner && held.expiresAt > now())
        return { acquired: false, holder: { owner: held.owner, expiresInMs: held.expiresAt - now() } };
      leases.set(key, { owner, expiresAt: now() + ttlMs });
      return { acquired: true };
    },
    async renew(key, owner, ttlMs) {
      const held = leases.get(key);
      if (held?.owner !== owner) return false;
      held.expiresAt = now() + ttlMs;
      return true;
    },
    async release(key, owner) {
      if (leases.get(key)?.owner === owner) leases.delete(key);
    },
  };
}

/** How long a lease holds without renewal, and how often it is renewed and retried. */
export interface StepLeaseTiming {
  ttlMs: number;
  /** The holder renews this often (a third of the TTL leaves two tries before it expires). */
  renewEveryMs: number;
  /** A waiting executor asks again this often (it also asks when the holder's lease expires). */
  retryEveryMs: number;
}

const KEY = Symbol.for("coauthor.step-leases");
interface Holder {
  store: StepLeaseStore;
  timing: StepLeaseTiming;
  /** This process's name as an owner. */
  owner: string;
}

function holder(): Holder {
  const global = globalThis as typeof globalThis & { [KEY]?: Holder };
  global[KEY] ??= {
    store: memoryStepLeaseStore(),
    timing: stepLeaseTiming(10_000),
    owner: `process-${process.pid}-${randomUUID()}`,
  };
  return global[KEY];
}

/** The renewal and retry periods for a lease of `ttlMs`. */
export function stepLeaseTiming(ttlMs: number): StepLeaseTiming {
  return {
    ttlMs,
    renewEveryMs: Math.max(1, Math.floor(ttlMs / 3)),
    retryEveryMs: Math.max(1, Math.floor(ttlMs / 4)),
  };
}

/** Plugs in the app's shared store (call once at server start, before runs start). */
export function configureStepLeases(store: StepLeaseStore, timing?: StepLeaseTiming): void {
  const current = holder();
  current.store = store;
  if (timing) current.timing = timing;
}

/** Thrown out of a step whose lease another owner took while it ran: its result must not count. */
export class StepLeaseLostError extends Error {}

const pause = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** A held lease: `during` keeps it renewed while the step's work runs, then lets go. */
export interface StepLease {
  /**
   * Renews the lease until `work` settles, then releases it. If a renewal found the lease taken
   * (this process stalled past the TTL and another executor took over), `work`'s result is dropped
   * with StepLeaseLostError so the step is retried (and waits for the new holder).
   */
  during<T>(work: Promise<T>): Promise<T>;
}

type LeaseOptions = { owner?: string; store?: StepLeaseStore; timing?: StepLeaseTiming };

/**
 * Takes the lease on `key`, waiting while a live holder has it (until it lets go or its lease
 * expires). Call `during` right away: until then the lease is not renewed (if the caller fails
 * first, it expires by itself, and this process may take it again at once).
 */
export async function acquireStepLease(key: string, options: LeaseOptions = {}): Promise<StepLease> {
  const { store, timing, owner } = { ...holder(), ...options };
  for (let waited = false; ; waited = true) {
    const attempt = await store.acquire(key, owner, timing.ttlMs);
    if (attempt.acquired) {
      if (waited) log.info("step lease acquired after waiting", { key, owner });
      break;
    }
    if (!waited) log.info("step lease held elsewhere: waiting", { key, holder: attempt.holder.owner });
    await pause(Math.min(timing.retryEveryMs, Math.max(1, attempt.holder.expiresInMs + 1)));
  }
  return {
    async during<T>(work: Promise<T>): Promise<T> {
      let lost = false;
      let renewing = Promise.resolve();
      const renew = setInterval(() => {
        renewing = store
          .renew(key, owner, timing.ttlMs)
          .then((kept) => {
            if (kept || lost) return;
            lost = true;
            log.error("step lease lost to another executor", { key, owner });
          })
          .catch((error: unknown) => log.warn("step lease renewal failed", { key, error }));
      }, timing.renewEveryMs);
      renew.unref?.();
      let value: T;
      try {
        value = await work;
      } finally {
        clearInterval(renew);
        await renewing; // A renewal in flight still decides whether the lease was lost.
        if (!lost) await store.release(key, owner);
      }
      if (lost) throw new StepLeaseLostError(`the lease on ${key} was taken by another executor`);
      return value;
    },
  };
}

/** Runs `work` while holding the lease on `key` (acquireStepLease, then `during`). */
export async function withStepLease<T>(
  key: string,
  work: () => Promise<T>,
  options: LeaseOptions = {},
): Promise<T> {
  const lease = await acquireStepLease(key, options);
  return lease.during(work());
}
