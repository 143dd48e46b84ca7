// Test helper: Google's Gemini API. `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`
// answers `data:` records that are each a whole GenerateContentResponse (no
// `event:` names, no `[DONE]`: the stream ending is the end); the last carries
// `finishReason` and `usageMetadata`. A function call arrives whole in one part
// (the Gemini API does not stream a call's arguments), so a "piece-wise" tool
// input is one piece here. Structured output is JSON text constrained by
// `generationConfig.responseJsonSchema`, or (Gemini 2.x with tools) a forced
// `json` function call. Shapes follow
// https://ai.google.dev/api/generate-content (see fixtures/gemini.json); errors
// follow https://ai.google.dev/gemini-api/docs/troubleshooting.
import {
  argumentsOf,
  type FakeFailure,
  type FakeProtocol,
  type FakeProviderServer,
  type FakeRequest,
  type FakeTurn,
  type SseRecord,
  startFakeProvider,
} from "./fake-provider.ts";

/**
 * A request that forces one function (`functionCallingConfig` mode ANY naming it) gets that call.
 * The SDK forces a `json` function for structured output when Gemini 2.x also has tools, which
 * it rejects together with a JSON response format.
 */
function shaped(turn: FakeTurn, request: FakeRequest): FakeTurn {
  const config = (
    request.body.toolConfig as { functionCallingConfig?: { mode?: string; allowedFunctionNames?: string[] } }
  )?.functionCallingConfig;
  const [forced, ...others] = config?.mode === "ANY" ? (config.allowedFunctionNames ?? []) : [];
  if (!forced || others.length > 0 || !turn.text?.length) return turn;
  return { ...turn, text: [], toolCalls: [{ id: "json", name: forced, argumentPieces: turn.text }] };
}

const ROUTE = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)(\?alt=sse)?$/;

function usage(turn: FakeTurn) {
  const input = turn.usage?.input ?? 0;
  const output = turn.usage?.output ?? 0;
  return { promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: input + output };
}

function chunk(parts: unknown[], model: string, end?: { reason: string; turn: FakeTurn }) {
  return {
    candidates: [
      {
        content: { parts, role: "model" },
        ...(end ? { finishReason: end.reason, index: 0 } : { index: 0 }),
      },
    ],
    ...(end ? { usageMetadata: usage(end.turn) } : {}),
    modelVersion: model,
    responseId: "fake-response",
  };
}

function callParts(turn: FakeTurn): unknown[] {
  return (turn.toolCalls ?? []).map((call) => ({
    functionCall: { name: call.name, args: JSON.parse(argumentsOf(call)) },
  }));
}

function events(turn: FakeTurn, model: string): SseRecord[] {
  const records: unknown[] = [];
  const texts = turn.text ?? [];
  for (const [index, text] of texts.entries()) {
    const last = index === texts.length - 1 && !turn.toolCalls?.length;
    records.push(chunk([{ text }], model, last ? { reason: "STOP", turn } : undefined));
  }
  if (turn.toolCalls?.length || texts.length === 0) {
    records.push(chunk(callParts(turn), model, { reason: "STOP", turn }));
  }
  return records.map((data) => ({ data }));
}

function googleError(status: number, code: string, message: string, details: unknown[] = []) {
  return { status, body: { error: { code: status, message, status: code, details } } };
}

function failure(failed: FakeFailure, model: string) {
  switch (failed.kind) {
    case "bad-key":
      // A bad key is a 400 on this API, told apart by its ErrorInfo reason.
      return googleError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "API_KEY_INVALID",
          domain: "googleapis.com",
        },
      ]);
    case "rate-limit":
      // The wait comes in the body (RetryInfo), not in a retry-after header.
      return googleError(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota.", [
        {
          "@type": "type.googleapis.com/google.rpc.RetryInfo",
          retryDelay: `${failed.retryAfterSeconds ?? 30}s`,
        },
      ]);
    case "context-too-long":
      return googleError(
        400,
        "INVALID_ARGUMENT",
        "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
      );
    case "overloaded":
      return googleError(503, "UNAVAILABLE", "The model is overloaded. Please try again later.");
    case "refused": {
      // A blocked answer ends with finishReason SAFETY and no text.
      const blocked = chunk([], model, { reason: "SAFETY", turn: {} });
      return { records: [{ data: blocked }], body: blocked };
    }
  }
}

/** The Gemini API protocol (generateContent / streamGenerateContent). */
export const geminiProtocol: FakeProtocol = {
  baseURL: (origin) => `${origin}/v1beta`,
  route: (path) => {
    const match = ROUTE.exec(path);
    if (!match) return null;
    return { streamed: match[2] === "streamGenerateContent" && match[3] === "?alt=sse" };
  },
  stream: (turn, request) => events(shaped(turn, request), modelOf(request.path)),
  complete: (answer, request) => {
    const turn = shaped(answer, request);
    const parts: unknown[] = turn.text?.length ? [{ text: turn.text.join("") }] : [];
    return chunk([...parts, ...callParts(turn)], modelOf(request.path), { reason: "STOP", turn });
  },
  failure: (failed, request) => failure(failed, modelOf(request.path)),
};

function modelOf(path: string): string {
  return ROUTE.exec(path)?.[1] ?? "";
}

/** Starts a fake Gemini API. */
export function startFakeGemini(): Promise<FakeProviderServer> {
  return startFakeProvider(geminiProtocol);
}
