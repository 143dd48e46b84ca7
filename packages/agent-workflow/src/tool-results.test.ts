import type { RunSignal } from "@coauthor/types";
import { describe, expect, it } from "vitest";
import { type AgentStore, configureAgentStore, memoryAgentStore } from "./agent-store.ts";
import { configureRunSignals } from "./run-signals.ts";
import { awaitToolResult, listenForToolResult, recordToolResult, wakeToolResult } from "./tool-results.ts";

const never = new AbortController().signal;
let seq = 0;
const ids = () => ({ runId: `run-${++seq}`, userId: "writer", documentId: "doc", toolCallId: "c1" });
/** Records a result in the store without waking anyone, as another instance would. */
const recordElsewhere = (runId: string, toolCallId: string, result: unknown) =>
  memoryAgentStore().claimToolResult({
    jti: `elsewhere-${++seq}`,
    runId,
    userId: "writer",
    documentId: "doc",
    toolCallId,
    bodyHash: "",
    result,
  });

describe("awaitToolResult", () => {
  it("returns a result recorded before anyone waited (a fast browser, or a step resumed after a restart)", async () => {
    const { runId, toolCallId } = ids();
    await recordElsewhere(runId, toolCallId, { ok: true, n: 1 });
    const answer = await awaitToolResult(runId, toolCallId, { deadline: Date.now() + 5_000, signal: never });
    expect(answer).toEqual({ kind: "result", result: { ok: true, n: 1 } });
  });

  it("finds a result recorded by another instance (in the store, nobody woke it) by polling", async () => {
    const { runId, toolCallId } = ids();
    const waiting = awaitToolResult(runId, toolCallId, {
      deadline: Date.now() + 5_000,
      signal: never,
      pollMs: 20,
    });
    setTimeout(() => void recordElsewhere(runId, toolCallId, { ok: true }), 30);
    expect(await waiting).toEqual({ kind: "result", result: { ok: true } });
  });

  it("records a token's result once: the same body again is a replay, another body a conflict", async () => {
    const run = ids();
    const use = { jti: `jti-${run.runId}`, ...run };
    expect(await recordToolResult({ ...use, result: { ok: true, first: true } })).toBe("claimed");
    expect(await recordToolResult({ ...use, result: { ok: true, first: true } })).toBe("replay");
    expect(await recordToolResult({ ...use, result: { ok: true, first: false } })).toBe("conflict");
    const answer = await awaitToolResult(run.runId, run.toolCallId, {
      deadline: Date.now() + 5_000,
      signal: never,
    });
    expect(answer).toEqual({ kind: "result", result: { ok: true, first: true } });
  });

  it("times out at the deadline, and stops waiting at once when the run is stopped", async () => {
    const { runId, toolCallId } = ids();
    const started = Date.now();
    expect(await awaitToolResult(runId, toolCallId, { deadline: started + 60, signal: never })).toEqual({
      kind: "timeout",
    });
    const stop = new AbortController();
    const waiting = awaitToolResult(runId, toolCallId, {
      deadline: Date.now() + 60_000,
      signal: stop.signal,
    });
    setTimeout(() => stop.abort(new Error("stopped")), 10);
    expect(await waiting).toEqual({ kind: "aborted" });
  });

  it("takes a result handed over in-process without reading the store, and a fresh call skips the first read", async () => {
    const { runId, toolCallId } = ids();
    const real = memoryAgentStore();
    let reads = 0;
    const counting: AgentStore = {
      ...real,
      getToolResult: (...args) => {
        reads++;
        return real.getToolResult(...args);
      },
    };
    configureAgentStore(counting);
    try {
      const listener = listenForToolResult(runId, toolCallId);
      const waiting = listener.wait({ signal: AbortSignal.timeout(5_000), fresh: true });
      await recordElsewhere(runId, toolCallId, { ok: true });
      wakeToolResult(runId, toolCallId, { ok: true });
      expect(await waiting).toEqual({ kind: "result", result: { ok: true } });
      listener.close();
      expect(reads).toBe(0);
    } finally {
      configureAgentStore(real);
    }
  });

  it("signals the other instances only when no step of this process waits for the call", async () => {
    const sent: RunSignal[] = [];
    configureRunSignals(async (signal) => {
      sent.push(signal);
    });
    try {
      const waited = ids();
      const listener = listenForToolResult(waited.runId, waited.toolCallId);
      const waiting = listener.wait({ signal: AbortSignal.timeout(5_000), fresh: true });
      expect(await recordToolResult({ jti: `jti-${waited.runId}`, ...waited, result: { ok: true } })).toBe(
        "claimed",
      );
      expect(await waiting).toEqual({ kind: "result", result: { ok: true } });
      listener.close();
      // Waited for here: a step runs on one instance at a time, so nobody else needs to hear of it.
      expect(sent).toEqual([]);

      const elsewhere = ids();
      expect(
        await recordToolResult({ jti: `jti-${elsewhere.runId}`, ...elsewhere, result: { ok: true } }),
      ).toBe("claimed");
      expect(sent).toEqual([{ runId: elsewhere.runId, toolCallId: elsewhere.toolCallId }]);
    } finally {
      configureRunSignals(undefined);
    }
  });

  it("marks the model phase with the claim when the step waiting here goes on to a model turn", async () => {
    const progress = (phase: string) => ({
      state: JSON.stringify({ phase }),
      messages: { from: 0, json: "[]" },
    });
    const phaseOf = async (runId: string) =>
      ((await memoryAgentStore().loadProgress(runId))?.state as { phase: string } | undefined)?.phase;
    const answer = async (modelTurnNext: boolean) => {
      const run = ids();
      await memoryAgentStore().saveProgress(run.runId, 0, progress("tools"));
      const listener = listenForToolResult(run.runId, run.toolCallId, { modelTurnNext });
      const waiting = listener.wait({ signal: AbortSignal.timeout(5_000), fresh: true });
      expect(await recordToolResult({ jti: `jti-${run.runId}`, ...run, result: { ok: true } })).toBe(
        "claimed",
      );
      const answered = await waiting;
      listener.close();
      return { answered, phase: await phaseOf(run.runId) };
    };
    // The turn's last call: a model turn follows, and the step is told its mark is written.
    expect(await answer(true)).toEqual({
      answered: { kind: "result", result: { ok: true }, modelPhaseMarked: true },
      phase: "model",
    });
    // Another call of the turn comes next: nothing is marked.
    expect(await answer(false)).toEqual({
      answered: { kind: "result", result: { ok: true } },
      phase: "tools",
    });
    // Nobody waits here (the step is on another instance, or not waiting yet): it marks for itself.
    const elsewhere = ids();
    await memoryAgentStore().saveProgress(elsewhere.runId, 0, progress("tools"));
    await recordToolResult({ jti: `jti-${elsewhere.runId}`, ...elsewhere, result: { ok: true } });
    expect(await phaseOf(elsewhere.runId)).toBe("tools");
  });
});
