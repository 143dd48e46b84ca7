// Test helper: OpenAI's Responses API (`POST /v1/responses`), what `openai(model)`
// speaks in AI SDK 7. Semantic SSE events (`event:` + `data:` with a
// `sequence_number`), no `[DONE]`; structured output is ordinary output text
// constrained by `text.format`. Event order and shapes follow
// https://platform.openai.com/docs/api-reference/responses-streaming (see
// fixtures/openai-responses.json); errors follow
// https://platform.openai.com/docs/guides/error-codes.
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

type OutputItem = Record<string, unknown>;

function outputItems(turn: FakeTurn): OutputItem[] {
  const items: OutputItem[] = [];
  const text = (turn.text ?? []).join("");
  if (turn.text?.length) {
    items.push({
      id: "msg_fake",
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text, annotations: [] }],
    });
  }
  for (const call of turn.toolCalls ?? []) {
    items.push({
      id: `fc_${call.id}`,
      type: "function_call",
      status: "completed",
      arguments: argumentsOf(call),
      call_id: call.id,
      name: call.name,
    });
  }
  return items;
}

function response(model: string, status: string, output: OutputItem[], turn?: FakeTurn) {
  const usage = turn?.usage ?? { input: 0, output: 0 };
  return {
    id: "resp_fake",
    object: "response",
    created_at: 1_741_476_542,
    status,
    error: null,
    incomplete_details: status === "incomplete" ? { reason: "content_filter" } : null,
    model,
    output,
    usage:
      status === "in_progress"
        ? null
        : {
            input_tokens: usage.input,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: usage.output,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: usage.input + usage.output,
          },
  };
}

function events(turn: FakeTurn, model: string, end: "completed" | "incomplete" = "completed"): SseRecord[] {
  const records: Record<string, unknown>[] = [];
  const push = (type: string, fields: Record<string, unknown>) => records.push({ type, ...fields });
  push("response.created", { response: response(model, "in_progress", []) });
  push("response.in_progress", { response: response(model, "in_progress", []) });
  const items = outputItems(turn);
  for (const [outputIndex, item] of items.entries()) {
    if (item.type === "message") {
      const text = (turn.text ?? []).join("");
      const at = { item_id: item.id, output_index: outputIndex, content_index: 0 };
      push("response.output_item.added", {
        output_index: outputIndex,
        item: { ...item, status: "in_progress", content: [] },
      });
      push("response.content_part.added", {
        ...at,
        part: { type: "output_text", text: "", annotations: [] },
      });
      for (const delta of turn.text ?? []) push("response.output_text.delta", { ...at, delta, logprobs: [] });
      push("response.output_text.done", { ...at, text, logprobs: [] });
      push("response.content_part.done", { ...at, part: { type: "output_text", text, annotations: [] } });
      push("response.output_item.done", { output_index: outputIndex, item });
    } else {
      const call = turn.toolCalls?.find((c) => c.id === item.call_id);
      const at = { item_id: item.id, output_index: outputIndex };
      push("response.output_item.added", {
        output_index: outputIndex,
        item: { ...item, status: "in_progress", arguments: "" },
      });
      for (const delta of call?.argumentPieces ?? [])
        push("response.function_call_arguments.delta", { ...at, delta });
      push("response.function_call_arguments.done", { ...at, arguments: item.arguments });
      push("response.output_item.done", { output_index: outputIndex, item });
    }
  }
  push(`response.${end}`, { response: response(model, end, items, turn) });
  return records.map((data, index) => ({
    event: String(data.type),
    data: { ...data, sequence_number: index },
  }));
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
        "Incorrect API key provided: sk-fake. You can find your API key at https://platform.openai.com/account/api-keys.",
      );
    case "rate-limit":
      return {
        ...openAIError(
          429,
          "requests",
          "rate_limit_exceeded",
          `Rate limit reached for ${model} on requests per min (RPM): Limit 3, Used 3, Requested 1.`,
        ),
        headers: retryAfterHeaders(failed),
      };
    case "context-too-long":
      return openAIError(
        400,
        "invalid_request_error",
        "context_length_exceeded",
        "Your input exceeds the context window of this model. Please adjust your input and try again.",
      );
    case "overloaded":
      return openAIError(
        503,
        "server_error",
        null,
        "The engine is currently overloaded, please try again later.",
      );
    case "refused":
      // A moderated answer ends `incomplete` with reason `content_filter`.
      return {
        records: events({ text: [] }, model, "incomplete"),
        body: response(model, "incomplete", []),
      };
  }
}

/** The Responses API protocol. */
export const openAIResponsesProtocol: FakeProtocol = {
  baseURL: (origin) => `${origin}/v1`,
  route: (path, body) => (path === "/v1/responses" ? { streamed: body.stream === true } : null),
  stream: (turn, request) => events(turn, String(request.body.model)),
  complete: (turn, request) => response(String(request.body.model), "completed", outputItems(turn), turn),
  failure: (failed, request) => failure(failed, String(request.body.model)),
};

/** Starts a fake OpenAI Responses API. */
export function startFakeOpenAIResponses(): Promise<FakeProviderServer> {
  return startFakeProvider(openAIResponsesProtocol);
}
