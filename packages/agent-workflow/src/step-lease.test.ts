import { describe, expect, it } from "vitest";
import {
  memoryStepLeaseStore,
  StepLeaseLostError,
  type StepLeaseStore,
  withStepLease,
} from "./step-lease.ts";

// Timing in these tests is the lease's own clock (`now`), moved by hand; the real timers only
// decide how often a waiting executor asks again (a few ms).
const timing = { ttlMs: 1_000, renewEveryMs: 5, retryEveryMs: 2 };

function gate() {
  const opener: { open?: () => void } = {};
  const opened = new Promise<void>((resolve) => {
    opener.open = resolve;
  });
  return { open: () => opener.open?.(), opened };
}

describe("the owner lease on a step", () => {
  it("lets a second executor in only after the first one lets go: never both at once", async () => {
    const store = memoryStepLeaseStore();
    const log: string[] = [];
    const first = gate();
    const startedFirst = gate();
    const a = withStepLease(
      "run-1",
      async () => {
        log.push("a starts");
        startedFirst.open();
        await first.opened;
        log.push("a ends");
        return "a";
      },
      { owner: "instance-a", store, timing },
    );
    await startedFirst.opened;
    const b = withStepLease(
      "run-1",
      async () => {
        log.push("b starts");
        return "b";
      },
      { owner: "instance-b", store, timing },
    );
    // B is waiting: A still holds the lease (its renewals keep it alive).
    expect(await store.acquire("run-1", "probe", 1)).toMatchObject({
      acquired: false,
      holder: { owner: "instance-a" },
    });
    first.open();
    expect(await Promise.all([a, b])).toEqual(["a", "b"]);
    expect(log).toEqual(["a starts", "a ends", "b starts"]);
  });

  it("is taken over once a dead owner's lease expires (nobody renews it)", async () => {
    let clock = 0;
    const store = memoryStepLeaseStore(() => clock);
    // An owner that took the lease and died: it never renews nor releases.
    await store.acquire("run-2", "dead-instance", timing.ttlMs);
    let ran = false;
    const b = withStepLease(
      "run-2",
      async () => {
        ran = true;
        return "resumed";
      },
      { owner: "instance-b", store, timing },
    );
    await expect.poll(async () => (await store.acquire("run-2", "probe", 1)).acquired).toBe(false);
    expect(ran).toBe(false);
    clock += timing.ttlMs + 1;
    expect(await b).toBe("resumed");
    expect(ran).toBe(true);
    // Released after the work: the next executor gets it at once.
    expect(await store.acquire("run-2", "next", timing.ttlMs)).toEqual({ acquired: true });
  });

  it("drops the work's result when another executor took the lease while it ran", async () => {
    const inner = memoryStepLeaseStore();
    const stolen = gate();
    // A store whose renewal reports the lease gone once the work has started (a stall past the TTL).
    const store: StepLeaseStore = {
      acquire: (key, owner, ttl) => inner.acquire(key, owner, ttl),
      renew: async () => {
        stolen.open();
        return false;
      },
      release: (key, owner) => inner.release(key, owner),
    };
    const run = withStepLease(
      "run-3",
      async () => {
        await stolen.opened;
        return "stale";
      },
      { owner: "instance-a", store, timing },
    );
    await expect(run).rejects.toBeInstanceOf(StepLeaseLostError);
  });

  it("lets the same owner take its own lease again (a retry of the step in the same process)", async () => {
    const store = memoryStepLeaseStore();
    await store.acquire("run-4", "instance-a", timing.ttlMs);
    expect(await withStepLease("run-4", async () => 4, { owner: "instance-a", store, timing })).toBe(4);
  });
});
