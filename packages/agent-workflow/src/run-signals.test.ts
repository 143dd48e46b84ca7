import type { RunSignal } from "@coauthor/types";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type AgentStore, configureAgentStore, memoryAgentStore } from "./agent-store.ts";
import { configureRunSignals, notifyStop, receiveRunSignal } from "./run-signals.ts";
import { listenForToolResult, wakeToolResult } from "./tool-results.ts";
import { watchRun } from "./workflows/agent/steps/run-watch.ts";

let seq = 0;
const ids = () => ({ runId: `signal-run-${++seq}`, toolCallId: "c1" });

afterEach(() => {
  configureRunSignals(undefined);
  configureAgentStore(memoryAgentStore());
});

describe("run signals", () => {
  it("a result recorded on another instance reaches the waiting step with its signal, not at the next poll", async () => {
    const { runId, toolCallId } = ids();
    const listener = listenForToolResult(runId, toolCallId);
    // Fresh: the first pass skips the store, and the next read would be the 5 s safety net.
    const waiting = listener.wait({ signal: AbortSignal.timeout(2_000), fresh: true });
    await memoryAgentStore().claimToolResult({
      jti: `${runId}-1`,
      runId,
      userId: "writer",
      documentId: "doc",
      toolCallId,
      bodyHash: "",
      result: { ok: true, from: "elsewhere" },
    });
    receiveRunSignal({ runId, toolCallId });
    expect(await waiting).toEqual({ kind: "result", result: { ok: true, from: "elsewhere" } });
    listener.close();
  });

  it("a signal that came before the wait began makes even a fresh first pass read the store", async () => {
    const { runId, toolCallId } = ids();
    const listener = listenForToolResult(runId, toolCallId);
    await memoryAgentStore().claimToolResult({
      jti: `${runId}-1`,
      runId,
      userId: "writer",
      documentId: "doc",
      toolCallId,
      bodyHash: "",
      result: { ok: true },
    });
    receiveRunSignal({ runId, toolCallId });
    const answer = await listener.wait({ signal: AbortSignal.timeout(2_000), fresh: true });
    expect(answer).toEqual({ kind: "result", result: { ok: true } });
    listener.close();
  });

  it("with a transport, a woken result and a Stop go out as ids only, and a failing transport throws nowhere", async () => {
    const sent: RunSignal[] = [];
    configureRunSignals(async (signal) => {
      sent.push(signal);
    });
    const { runId, toolCallId } = ids();
    wakeToolResult(runId, toolCallId, { ok: true, text: "document text stays here" });
    notifyStop(runId);
    expect(sent).toEqual([{ runId, toolCallId }, { runId }]);

    configureRunSignals(() => Promise.reject(new Error("connection lost")));
    expect(() => notifyStop(runId)).not.toThrow();
  });

  it("a Stop signalled from another instance has the step read the stored status at once", async () => {
    const { runId } = ids();
    let stopped = false;
    const store: AgentStore = { ...memoryAgentStore(), isStopped: async () => stopped };
    configureAgentStore(store);
    const watch = watchRun(runId, Date.now() + 60_000);
    try {
      stopped = true;
      receiveRunSignal({ runId });
      // Well before the 5 s safety-net read.
      await vi.waitFor(() => expect(watch.stopped.aborted).toBe(true), { timeout: 1_000 });
      expect(watch.signal.aborted).toBe(true);
    } finally {
      watch.close();
    }
  });
});
