import { beforeAll, describe, expect, it } from "vitest";

// The slots are the process's: the size is read once, on first use.
beforeAll(() => {
  process.env.MAX_BACKGROUND_RUNS = "2";
});

/** A piece of work that runs until `finish` is called, and says when it started. */
function heldWork() {
  const state = { started: false, finish: () => {} };
  const done = new Promise<void>((resolve) => {
    state.finish = resolve;
  });
  return {
    state,
    work: async () => {
      state.started = true;
      await done;
    },
  };
}

describe("executor slots", () => {
  it("run at most MAX_BACKGROUND_RUNS calls at once; the next waits its turn and says so", async () => {
    const { withExecutorSlot } = await import("./executor-slots");
    const [a, b, c, d] = [heldWork(), heldWork(), heldWork(), heldWork()];
    const queued: Array<[string, number]> = [];
    const runs = [a, b, c, d].map((held, i) =>
      withExecutorSlot(held.work, (ahead) => queued.push([`call ${i}`, ahead])),
    );
    await Promise.resolve();
    expect([a, b, c, d].map((held) => held.state.started)).toEqual([true, true, false, false]);
    expect(queued).toEqual([
      ["call 2", 0],
      ["call 3", 1],
    ]);
    a?.state.finish();
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect([c, d].map((held) => held?.state.started)).toEqual([true, false]);
    for (const held of [b, c, d]) held?.state.finish();
    await Promise.all(runs);
    expect(d?.state.started).toBe(true);
  });
});
