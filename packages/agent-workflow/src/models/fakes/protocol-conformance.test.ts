// Each fake against the example stream its provider's API reference documents
// (fixtures/*.json, with their source URL): the same events, in the same order,
// with the same fields. A fake that drifts from the documented protocol fails here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { anthropicMessagesProtocol } from "./anthropic-messages-fake.ts";
import type { FakeProtocol, FakeRequest, FakeTurn, SseRecord } from "./fake-provider.ts";
import { geminiProtocol } from "./gemini-fake.ts";
import { openAIChatProtocol } from "./openai-chat-fake.ts";
import { openAIResponsesProtocol } from "./openai-responses-fake.ts";

type Shape = Record<string, unknown>;
const keys = (value: unknown) => Object.keys(value as object).sort();
const field = (value: unknown, name: string) => (value as Record<string, unknown> | undefined)?.[name];

/** A documented turn: a sentence in two pieces, then a tool call whose input comes in two pieces. */
const TURN: FakeTurn = {
  text: ["Okay, let me ", "check."],
  toolCalls: [{ id: "call_1", name: "get_weather", argumentPieces: ['{"location": ', '"Paris"}'] }],
  usage: { input: 10, output: 5 },
};

function request(path: string): FakeRequest {
  return { at: 0, path, headers: {}, body: { model: "fake-model", stream: true }, streamed: true };
}

// How each fixture describes a record: the parts of it the documentation pins down.
const shapes: Record<string, (record: SseRecord) => Shape> = {
  "anthropic-messages.json": ({ event, data }) => ({
    event,
    keys: keys(data),
    ...(field(data, "content_block") ? { block: field(field(data, "content_block"), "type") } : {}),
    ...(field(data, "type") === "content_block_delta" ? { delta: field(field(data, "delta"), "type") } : {}),
  }),
  "openai-responses.json": ({ event, data }) => ({
    event,
    keys: keys(data),
    ...(field(data, "item") ? { item: field(field(data, "item"), "type") } : {}),
  }),
  "openai-chat.json": ({ data }) => {
    if (data === "[DONE]") return { done: true };
    const choice = (field(data, "choices") as unknown[])[0];
    if (!choice) return { usage: field(data, "usage") !== undefined };
    const delta = field(choice, "delta");
    const calls = field(delta, "tool_calls") as unknown[] | undefined;
    const finish = field(choice, "finish_reason");
    return {
      delta: keys(delta),
      ...(calls ? { toolCall: keys(calls[0]) } : {}),
      ...(finish ? { finish } : {}),
    };
  },
  "gemini.json": ({ data }) => {
    const candidate = (field(data, "candidates") as unknown[])[0];
    const parts = field(field(candidate, "content"), "parts") as object[];
    const finishReason = field(candidate, "finishReason");
    return {
      parts: parts.map((part) => Object.keys(part)[0]),
      keys: keys(data),
      ...(finishReason ? { finishReason } : {}),
    };
  },
};

const cases: [string, FakeProtocol, string][] = [
  ["anthropic-messages.json", anthropicMessagesProtocol, "/v1/messages"],
  ["openai-responses.json", openAIResponsesProtocol, "/v1/responses"],
  ["openai-chat.json", openAIChatProtocol, "/v1/chat/completions"],
  ["gemini.json", geminiProtocol, "/v1beta/models/fake-model:streamGenerateContent?alt=sse"],
];

describe.each(cases)("the fake behind %s", (fixtureName, protocol, path) => {
  const fixture = JSON.parse(readFileSync(new URL(`./fixtures/${fixtureName}`, import.meta.url), "utf8")) as {
    source: string;
    events: Shape[];
  };

  it("names the documentation its fixture was taken from", () => {
    expect(fixture.source).toMatch(/^https:\/\//);
  });

  it("streams the documented events, in order, with the documented fields", () => {
    const written = protocol.stream(TURN, request(path)).map(shapes[fixtureName] ?? (() => ({})));
    // Key lists compare as sets.
    const documented = fixture.events.map((event) =>
      Object.fromEntries(
        Object.entries(event).map(([name, value]) =>
          name !== "parts" && Array.isArray(value) ? [name, [...value].sort()] : [name, value],
        ),
      ),
    );
    expect(written).toEqual(documented);
  });

  it("is routed on the documented endpoint only", () => {
    expect(protocol.route(path, { stream: true })).toEqual({ streamed: true });
    expect(protocol.route("/v1/other", { stream: true })).toBeNull();
  });
});
