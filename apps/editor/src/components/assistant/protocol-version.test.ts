import {
  PROTOCOL_OUTDATED_MESSAGE,
  PROTOCOL_VERSION,
  PROTOCOL_VERSION_ERROR,
  PROTOCOL_VERSION_HEADER,
} from "@coauthor/types";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentRunHandlers } from "./run-client";
import { postToolResult } from "./run-client";
import { reattachAgentRun, streamAgentRun } from "./run-follow";

const RUN = "wrun_test";
// What a server on newer code answers this page (apps/editor/src/server/http/protocol-version.ts).
const refusal = () =>
  Response.json(
    { code: PROTOCOL_VERSION_ERROR, message: "Coauthor was updated (the server speaks 9.9)" },
    { status: 409, headers: { [PROTOCOL_VERSION_HEADER]: "9.9" } },
  );

function refusingServer() {
  const sent: { url: string; version: string | null }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      sent.push({ url, version: new Headers(init?.headers).get(PROTOCOL_VERSION_HEADER) });
      return refusal();
    }),
  );
  return sent;
}

function handlers() {
  const executed: string[] = [];
  const value: AgentRunHandlers = {
    signal: new AbortController().signal,
    executeTool: async (call) => {
      executed.push(call.toolCallId);
      return { ok: true };
    },
    onRunId: () => undefined,
    onEvent: () => undefined,
    onToolSettled: () => undefined,
  };
  return { value, executed };
}

beforeEach(() => {
  vi.stubGlobal("window", new EventTarget());
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the page's protocol version", () => {
  it("goes with a run's start, and a refusal ends it with the reload message, no tool run", async () => {
    const sent = refusingServer();
    const h = handlers();
    const outcome = await streamAgentRun({ documentId: "d", prompt: "p", messages: [] }, h.value);
    expect(outcome).toEqual({ status: "failed", reason: PROTOCOL_OUTDATED_MESSAGE });
    expect(sent).toEqual([{ url: "/api/llm/agent", version: PROTOCOL_VERSION }]);
    expect(h.executed).toEqual([]);
  });

  it("goes with a reattach, and a refusal ends it the same way", async () => {
    const sent = refusingServer();
    const h = handlers();
    const outcome = await reattachAgentRun({ runId: RUN, prompt: "p", answeredToolCallIds: [] }, h.value);
    expect(outcome).toEqual({ status: "failed", reason: PROTOCOL_OUTDATED_MESSAGE });
    const stream = sent.find((request) => request.url.includes("/stream"));
    expect(stream).toEqual({ url: `/api/llm/agent/${RUN}/stream?from=0`, version: PROTOCOL_VERSION });
    expect(h.executed).toEqual([]);
  });

  it("goes with a tool result, and a refusal says to reload", async () => {
    const sent = refusingServer();
    const call = {
      type: "tool-call" as const,
      runId: RUN,
      id: 1,
      toolCallId: "c1",
      toolName: "insertBlocks",
      input: {},
      hookToken: "t",
      deadline: Date.now() + 60_000,
    };
    await expect(postToolResult(call, { ok: true }, new AbortController().signal)).rejects.toThrow(
      PROTOCOL_OUTDATED_MESSAGE,
    );
    expect(sent).toEqual([{ url: "/api/llm/agent/callback", version: PROTOCOL_VERSION }]);
  });
});
