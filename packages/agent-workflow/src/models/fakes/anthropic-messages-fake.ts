// Test helper: Anthropic's Messages API (`POST /v1/messages`). Named SSE events
// (message_start, content_block_start/delta/stop, message_delta, message_stop,
// with a `ping`), tool input streamed as `input_json_delta` partial JSON, no
// `[DONE]`. Structured output: native `output_config.format` on models that
// have it (the answer is text), otherwise the SDK forces a `json` tool and the
// answer is that tool's input. Event order follows
// https://docs.anthropic.com/en/docs/build-with-claude/streaming (see
// fixtures/anthropic-messages.json); errors follow
// https://docs.anthropic.com/en/api/errors.
import {
  type FakeFailure,
  type FakeProtocol,
  type FakeProviderServer,
  type FakeRequest,
  type FakeTurn,
  retryAfterHeaders,
  type SseRecord,
  startFakeProvider,
} from "./fake-provider.ts";

/**
 * The tool a request forces (`tool_choice` "tool", or "any": the model must call one). The SDK forces
 * a `json` tool for structured output on models without native JSON output.
 */
function forcedTool(request: FakeRequest): string | undefined {
  const choice = request.body.tool_choice as { type?: string; name?: string } | undefined;
  if (choice?.type === "tool") return choice.name;
  if (choice?.type !== "any") return undefined;
  const names = ((request.body.tools as { name?: string }[] | undefined) ?? []).map((tool) => tool.name);
  return names.includes("json") ? "json" : names[0];
}

/** A structured answer asked for through a forced tool is that tool's input, not text. */
function shaped(turn: FakeTurn, request: FakeRequest): FakeTurn {
  const tool = forcedTool(request);
  if (!tool || !turn.text?.length) return turn;
  return { ...turn, text: [], toolCalls: [{ id: "toolu_json", name: tool, argumentPieces: turn.text }] };
}

function message(model: string, content: unknown[], stopReason: string | null, turn: FakeTurn) {
  return {
    id: "msg_fake",
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: turn.usage?.input ?? 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: stopReason === null ? 1 : (turn.usage?.output ?? 0),
    },
  };
}

function stopReason(turn: FakeTurn): string {
  return turn.toolCalls?.length ? "tool_use" : "end_turn";
}

function blocks(turn: FakeTurn): unknown[] {
  const content: unknown[] = [];
  if (turn.text?.length) content.push({ type: "text", text: turn.text.join("") });
  for (const call of turn.toolCalls ?? []) {
    content.push({
      type: "tool_use",
      id: call.id,
      name: call.name,
      input: JSON.parse(call.argumentPieces.join("")),
    });
  }
  return content;
}

function events(turn: FakeTurn, model: string, stop = stopReason(turn)): SseRecord[] {
  const records: Record<string, unknown>[] = [];
  records.push({ type: "message_start", message: message(model, [], null, turn) });
  let index = 0;
  if (turn.text?.length) {
    records.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
    records.push({ type: "ping" });
    for (const text of turn.text) {
      records.push({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
    }
    records.push({ type: "content_block_stop", index });
    index++;
  }
  for (const call of turn.toolCalls ?? []) {
    records.push({
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
    });
    // The first delta of a tool's input is documented as an empty string.
    for (const partial of ["", ...call.argumentPieces]) {
      records.push({
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: partial },
      });
    }
    records.push({ type: "content_block_stop", index });
    index++;
  }
  records.push({
    type: "message_delta",
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: turn.usage?.output ?? 0 },
  });
  records.push({ type: "message_stop" });
  return records.map((data) => ({ event: String(data.type), data }));
}

function anthropicError(status: number, type: string, message: string) {
  return { status, body: { type: "error", error: { type, message } } };
}

function failure(failed: FakeFailure, model: string) {
  switch (failed.kind) {
    case "bad-key":
      return anthropicError(401, "authentication_error", "invalid x-api-key");
    case "rate-limit":
      return {
        ...anthropicError(
          429,
          "rate_limit_error",
          "This request would exceed the rate limit for your organization of 50 requests per minute.",
        ),
        headers: retryAfterHeaders(failed),
      };
    case "context-too-long":
      return anthropicError(
        400,
        "invalid_request_error",
        "prompt is too long: 208310 tokens > 200000 maximum",
      );
    case "overloaded":
      return anthropicError(529, "overloaded_error", "Overloaded");
    case "refused":
      // Claude 4 models stop a refused answer with `stop_reason: "refusal"` (HTTP 200).
      return { records: events({}, model, "refusal"), body: message(model, [], "refusal", {}) };
  }
}

/** The Messages API protocol. */
export const anthropicMessagesProtocol: FakeProtocol = {
  baseURL: (origin) => `${origin}/v1`,
  route: (path, body) => (path === "/v1/messages" ? { streamed: body.stream === true } : null),
  stream: (turn, request) => events(shaped(turn, request), String(request.body.model)),
  complete: (turn, request) => {
    const answer = shaped(turn, request);
    return message(String(request.body.model), blocks(answer), stopReason(answer), answer);
  },
  failure: (failed, request) => failure(failed, String(request.body.model)),
};

/** Starts a fake Anthropic Messages API. */
export function startFakeAnthropic(): Promise<FakeProviderServer> {
  return startFakeProvider(anthropicMessagesProtocol);
}
