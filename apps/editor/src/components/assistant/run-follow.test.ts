import type { RunEvent } from "@coauthor/types";
import { encodeSseFrame } from "@coauthor/types/sse";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentRunHandlers } from "./run-client";
import { reattachAgentRun, streamAgentRun } from "./run-follow";

const RUN = "wrun_test";
const deadline = Date.now() + 60_000;
const toolCall = (id: number, toolCallId: string): RunEvent => ({
  type: "tool-call",
  runId: RUN,
  id,
  toolCallId,
  toolName: "insertBlocks",
  input: { markdown: toolCallId, position: { at: "end" } },
  hookToken: `token-${toolCallId}`,
  deadline,
});
const RUN_START: RunEvent = {
  type: "run-start",
  runId: RUN,
  id: 0,
  documentId: "d",
  mode: "agent",
  model: "m",
};
const toolResult = (id: number, toolCallId: string): RunEvent => ({
  type: "tool-result",
  runId: RUN,
  id,
  toolCallId,
  ok: true,
  summary: "ok",
});
const frames = (...events: RunEvent[]) => events.map(encodeSseFrame).join("");

/** An SSE response whose body is `first`, then (once `more` resolves) its text, then the end. */
function sse(first: string, more?: Promise<string>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(first));
      if (more) controller.enqueue(encoder.encode(await more));
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", "x-run-id": RUN } });
}

function handlers(executeTool: AgentRunHandlers["executeTool"]) {
  const seen: RunEvent[] = [];
  const settled: { toolCallId: string; ok: boolean; detail?: string }[] = [];
  const value: AgentRunHandlers = {
    signal: new AbortController().signal,
    executeTool,
    onRunId: () => undefined,
    onEvent: (event) => seen.push(event),
    onToolSettled: (call, outcome) => settled.push({ toolCallId: call.toolCallId, ...outcome }),
  };
  return { value, seen, settled };
}

/** The lease answer for this tab: granted (default) or held by another tab; renewals every 10 ms. */
const leaseAnswer = (granted: boolean) => Response.json({ granted, ttlMs: 30 });
const LEASE_URL = `/api/llm/agent/${RUN}/lease`;

beforeEach(() => {
  // The lease is let go on pagehide; these tests run outside a browser.
  vi.stubGlobal("window", new EventTarget());
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("run client", () => {
  it("posts an error result when a tool throws, and follows the run to its end", async () => {
    let posted: unknown;
    let resolveResult: (text: string) => void = () => undefined;
    const rest = new Promise<string>((resolve) => {
      resolveResult = resolve;
    });
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === "/api/llm/agent") {
          return sse(frames(RUN_START, toolCall(1, "c1")), rest);
        }
        if (url === LEASE_URL) return leaseAnswer(true);
        if (url === "/api/llm/agent/callback") {
          posted = JSON.parse(String(init?.body));
          resolveResult(frames({ type: "finish", runId: RUN, id: 2, status: "done" }));
          return new Response(null, { status: 204 });
        }
        throw new Error(`unexpected fetch ${url}`);
      }),
    );
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const h = handlers(async () => {
      throw new Error("boom");
    });
    const outcome = await streamAgentRun({ documentId: "d", prompt: "p", messages: [] }, h.value);
    expect(outcome).toEqual({ status: "done", summary: undefined });
    expect(posted).toMatchObject({
      toolCallId: "c1",
      result: { ok: false, code: "internal-error", message: expect.stringContaining("boom") },
    });
    expect(h.settled).toEqual([{ toolCallId: "c1", ok: false, detail: expect.stringContaining("boom") }]);
    expect(logged).toHaveBeenCalledOnce();
  });

  it("reattaches: answered calls are shown but not run, a dropped connection resumes after the last event", async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        if (url === LEASE_URL) return leaseAnswer(true);
        urls.push(url);
        if (url === `/api/llm/agent/${RUN}/stream?from=0`) {
          // Replay, then the connection drops before the run ends.
          return sse(frames(RUN_START, toolCall(1, "c1"), toolResult(2, "c1"), toolCall(3, "c2")));
        }
        if (url === "/api/llm/agent/callback") return new Response(null, { status: 204 });
        if (url === `/api/llm/agent/${RUN}/stream?from=4`) {
          return sse(
            frames(
              { type: "tool-result", runId: RUN, id: 4, toolCallId: "c2", ok: true, summary: "ok" },
              { type: "finish", runId: RUN, id: 5, status: "done" },
            ),
          );
        }
        throw new Error(`unexpected fetch ${url}`);
      }),
    );
    const executed: string[] = [];
    const h = handlers(async (call) => {
      executed.push(call.toolCallId);
      return { ok: true, blockIds: ["b1"] };
    });
    const outcome = await reattachAgentRun({ runId: RUN, prompt: "p", answeredToolCallIds: ["c1"] }, h.value);
    expect(outcome.status).toBe("done");
    expect(executed).toEqual(["c2"]);
    expect(h.seen.map((e) => e.id)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(urls.filter((u) => u.includes("/stream"))).toEqual([
      `/api/llm/agent/${RUN}/stream?from=0`,
      `/api/llm/agent/${RUN}/stream?from=4`,
    ]);
  });

  it("a start whose answer is lost reattaches to the run it started, and never starts it again", async () => {
    // The server admitted the run, then the connection broke (an instance killed): the answer
    // never came. Asking for the writer's run on the document finds it once the server answers.
    const ACTIVE = "/api/llm/agent/active?documentId=d";
    const urls: string[] = [];
    let activeAsked = 0;
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        if (url === LEASE_URL) return leaseAnswer(true);
        urls.push(url);
        if (url === "/api/llm/agent") throw new TypeError("fetch failed");
        if (url === ACTIVE) {
          activeAsked += 1;
          if (activeAsked === 1) throw new TypeError("fetch failed");
          return Response.json({ run: { runId: RUN, prompt: "append one", answeredToolCallIds: [] } });
        }
        if (url === `/api/llm/agent/${RUN}/stream?from=0`) {
          return sse(
            frames(RUN_START, toolCall(1, "c1"), toolResult(2, "c1"), {
              type: "finish",
              runId: RUN,
              id: 3,
              status: "done",
            }),
          );
        }
        if (url === "/api/llm/agent/callback") return new Response(null, { status: 204 });
        throw new Error(`unexpected fetch ${url}`);
      }),
    );
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const executed: string[] = [];
    const h = handlers(async (call) => {
      executed.push(call.toolCallId);
      return { ok: true, blockIds: ["b1"] };
    });
    const outcome = await streamAgentRun({ documentId: "d", prompt: "append one", messages: [] }, h.value);
    expect(outcome.status).toBe("done");
    expect(executed).toEqual(["c1"]);
    expect(urls.filter((url) => url === "/api/llm/agent")).toHaveLength(1);
    expect(activeAsked).toBe(2);
  });

  it("a start whose answer is lost fails as before when the writer's run on the document is another prompt's", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        if (url === "/api/llm/agent") throw new TypeError("fetch failed");
        if (url === "/api/llm/agent/active?documentId=d")
          return Response.json({ run: { runId: RUN, prompt: "an earlier prompt", answeredToolCallIds: [] } });
        throw new Error(`unexpected fetch ${url}`);
      }),
    );
    const h = handlers(async () => ({ ok: true }));
    await expect(
      streamAgentRun({ documentId: "d", prompt: "append one", messages: [] }, h.value),
    ).rejects.toThrow("fetch failed");
    expect(h.seen).toEqual([]);
  });

  it("a tab without the lease shows the run's calls but runs none, until the holder's lease lapses", async () => {
    let holderAlive = true;
    let releaseStream: (text: string) => void = () => undefined;
    const rest = new Promise<string>((resolve) => {
      releaseStream = resolve;
    });
    const posted: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === LEASE_URL) return leaseAnswer(!holderAlive);
        if (url === `/api/llm/agent/${RUN}/stream?from=0`) {
          return sse(frames(RUN_START, toolCall(1, "c1"), toolResult(2, "c1"), toolCall(3, "c2")), rest);
        }
        if (url === "/api/llm/agent/callback") {
          posted.push((JSON.parse(String(init?.body)) as { toolCallId: string }).toolCallId);
          releaseStream(
            frames(
              { type: "tool-result", runId: RUN, id: 4, toolCallId: "c2", ok: true, summary: "ok" },
              { type: "finish", runId: RUN, id: 5, status: "done" },
            ),
          );
          return new Response(null, { status: 204 });
        }
        throw new Error(`unexpected fetch ${url}`);
      }),
    );
    const executed: string[] = [];
    const h = handlers(async (call) => {
      executed.push(call.toolCallId);
      return { ok: true, blockIds: ["b1"] };
    });
    const following = reattachAgentRun({ runId: RUN, prompt: "p", answeredToolCallIds: [] }, h.value);
    // The holder (another tab) answered c1; c2 waits for it, and this tab does not touch it.
    await vi.waitFor(() => expect(h.seen.map((e) => e.id)).toEqual([0, 1, 2, 3]));
    expect(executed).toEqual([]);
    // The holder goes away: its lease lapses, this tab takes over and runs the unanswered call once.
    holderAlive = false;
    const outcome = await following;
    expect(outcome.status).toBe("done");
    expect(executed).toEqual(["c2"]);
    expect(posted).toEqual(["c2"]);
  });
});
