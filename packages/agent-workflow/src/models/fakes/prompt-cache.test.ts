// The condition every provider's prompt cache needs, checked on the wire: from one model turn of a
// run to the next, the request's prefix (tools, system prompt, earlier turns) stays byte-identical
// and only grows at the end; Anthropic requests carry their cache breakpoints.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { start } from "workflow/api";
import { deliverToolResult } from "../../tool-results.ts";
import { agentWorkflow } from "../../workflows/agent/index.ts";
import { collectEvents, TEST_LIMITS } from "../../workflows/agent/test-harness.ts";
import { registerModel } from "../registry.ts";
import type { FakeProviderServer, FakeReply } from "./fake-provider.ts";
import { PROVIDER_CASES } from "./providers.ts";

/** Where each protocol puts the conversation in its request body. */
const CONVERSATION_KEY: Record<string, string> = {
  "openai-responses.json": "input",
  "openai-chat.json": "messages",
  "anthropic-messages.json": "messages",
  "gemini.json": "contents",
};

/** A request body without its cache markers (they move to the newest message each turn). */
function withoutCacheMarkers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheMarkers);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "cache_control")
      .map(([key, inner]) => [key, withoutCacheMarkers(inner)]),
  );
}

const ARGS = '{"markdown":"Hello","position":{"at":"end"}}';
const TURNS: FakeReply[] = [
  { kind: "turn", turn: { text: ['{"goal":"","steps":[]}'] } },
  {
    kind: "turn",
    turn: {
      text: ["Adding it."],
      toolCalls: [{ id: "call_1", name: "insertBlocks", argumentPieces: [ARGS] }],
    },
  },
  { kind: "turn", turn: { text: ["Done."] } },
];

describe.each(PROVIDER_CASES)("prompt caching on $name", (provider) => {
  let fake: FakeProviderServer;
  let unregister = () => {};
  const modelId = `cache:${provider.fixture}`;
  beforeAll(async () => {
    fake = await provider.start();
    unregister = registerModel(modelId, () => provider.model(fake.baseURL, "test-key"));
  });
  afterAll(async () => {
    unregister();
    await fake.close();
  });

  it("keeps each turn's request a byte-identical prefix of the next", async () => {
    fake.enqueue(...TURNS);
    const run = await start(agentWorkflow, [
      { userId: "u1", documentId: "d1", prompt: "append", messages: [], modelId, limits: TEST_LIMITS },
    ]);
    await collectEvents(run.getReadable<string>(), async (event) => {
      if (event.type === "tool-call")
        await deliverToolResult(run.runId, event.toolCallId, { ok: true, blockIds: [] });
    });
    // The planner's request, then the two model turns.
    const [first, second] = fake.requests
      .slice(-2)
      .map((request) => withoutCacheMarkers(request.body)) as Record<string, unknown>[];
    const key = CONVERSATION_KEY[provider.fixture] ?? "messages";
    const before = first?.[key] as unknown[];
    const after = second?.[key] as unknown[];
    expect(after.length).toBeGreaterThan(before.length);
    expect(JSON.stringify(after.slice(0, before.length))).toBe(JSON.stringify(before));
    for (const field of Object.keys({ ...first, ...second }).filter((name) => name !== key)) {
      expect(JSON.stringify(second?.[field]), field).toBe(JSON.stringify(first?.[field]));
    }

    if (provider.fixture === "anthropic-messages.json") {
      const body = fake.requests.at(-1)?.body as {
        system: { cache_control?: unknown }[];
        messages: { content: { cache_control?: unknown }[] }[];
      };
      expect(body.system.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
      expect(body.messages.at(-1)?.content.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    }
  });
});
