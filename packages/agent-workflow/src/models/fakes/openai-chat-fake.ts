// Test helper: OpenAI's chat-completions API (`POST /v1/chat/completions`), what
// OpenAI-compatible servers (Ollama, vLLM, LM Studio) speak. Unnamed `data:`
// chunks ending with `data: [DONE]`; a tool call's `arguments` arrive in pieces
// under its `index`; structured output is JSON message content. Shapes follow
// https://platform.openai.com/docs/api-reference/chat-streaming (see
// fixtures/openai-chat.json). fake-openai-server.ts is the older, lower-level
// fake the OpenAI-compatible workflow test scripts chunk by chunk.
import {
  argumentsOf,
  type FakeFailure,
  type FakeProtocol,
  type FakeProviderServer,
  type FakeTurn,
  retryAfterHeaders,
  type SseRecord,
  startFakeProvider,
} from "./fake-provider.ts";

function usage(turn: FakeTurn) {
  const input = turn.usage?.input ?? 0;
  const output = turn.usage?.output ?? 0;
  return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
}

function events(turn: FakeTurn, model: string, finish?: string): SseRecord[] {
  const base = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1_741_476_542, model };
  const choice = (delta: unknown, finishReason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const records: unknown[] = [choice({ role: "assistant", content: "", refusal: null })];
  for (const content of turn.text ?? []) records.push(choice({ content }));
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    records.push(
      choice({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
      }),
    );
    for (const piece of call.argumentPieces) {
      records.push(choice({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  records.push(choice({}, finish ?? (turn.toolCalls?.length ? "tool_calls" : "stop")));
  records.push({ ...base, choices: [], usage: usage(turn) });
  return [...records.map((data) => ({ data })), { data: "[DONE]" }];
}

function completion(turn: FakeTurn, model: string, finish?: string) {
  const toolCalls = (turn.toolCalls ?? []).map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: argumentsOf(call) },
  }));
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 1_741_476_542,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: turn.text?.length ? turn.text.join("") : null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: finish ?? (toolCalls.length ? "tool_calls" : "stop"),
      },
    ],
    usage: usage(turn),
  };
}

function openAIError(status: number, type: string, code: string | null, message: string) {
  return { status, body: { error: { message, type, param: null, code } } };
}

function failure(failed: FakeFailure, model: string) {
  switch (failed.kind) {
    case "bad-key":
      return openAIError(
        401,
        "invalid_request_error",
        "invalid_api_key",
        "Incorrect API key provided: sk-fake.",
      );
    case "rate-limit":
      return {
        ...openAIError(
          429,
          "requests",
          "rate_limit_exceeded",
          `Rate limit reached for ${model} on requests per min.`,
        ),
        headers: retryAfterHeaders(failed),
      };
    case "context-too-long":
      return openAIError(
        400,
        "invalid_request_error",
        "context_length_exceeded",
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
      );
    case "overloaded":
      return openAIError(
        503,
        "server_error",
        null,
        "The engine is currently overloaded, please try again later.",
      );
    case "refused":
      return { records: events({}, model, "content_filter"), body: completion({}, model, "content_filter") };
  }
}

/** The chat-completions protocol. */
export const openAIChatProtocol: FakeProtocol = {
  baseURL: (origin) => `${origin}/v1`,
  route: (path, body) => (path === "/v1/chat/completions" ? { streamed: body.stream === true } : null),
  stream: (turn, request) => events(turn, String(request.body.model)),
  complete: (turn, request) => completion(turn, String(request.body.model)),
  failure: (failed, request) => failure(failed, String(request.body.model)),
};

/** Starts a fake chat-completions API. */
export function startFakeOpenAIChat(): Promise<FakeProviderServer> {
  return startFakeProvider(openAIChatProtocol);
}
