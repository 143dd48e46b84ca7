// Turns what a provider answered when a model call failed into one error code
// and one sentence a writer can act on. The technical detail (status, the
// provider's own message, retry attempts) goes to the log, not the panel.
import type { ModelErrorCode } from "@coauthor/types";
import { APICallError, RetryError } from "ai";
import { ModelTimeoutError } from "./model-call-deadline.ts";
import { describeModelError } from "./model-error.ts";

/** A classified model failure. */
export interface ModelFailure {
  code: ModelErrorCode;
  /** One sentence for the panel. */
  message: string;
  /** The technical description for the log. */
  detail: string;
}

// How each provider words "your prompt is too long": OpenAI `context_length_exceeded`, Anthropic
// "prompt is too long" (or 413 request_too_large), Gemini "input token count … exceeds".
const CONTEXT_TOO_LONG =
  /context_length_exceeded|maximum context length|context window|prompt is too long|request_too_large|input token count[^.]*exceeds/i;
const OVERLOADED = /overloaded/i;
const BAD_KEY = /API_KEY_INVALID|invalid_api_key|authentication_error/;

const SENTENCES: Record<Exclude<ModelErrorCode, "model-timeout" | "model-error">, string> = {
  "model-auth":
    "The model provider did not accept this server's API key; ask whoever runs Coauthor to check it.",
  "model-rate-limited":
    "The model provider's rate limit was reached and waiting did not clear it in time; wait a minute and send your request again.",
  "model-context-too-long":
    "The document and conversation are too long for this model; start a new conversation, select a smaller part of the document, or pick a model with a larger context.",
  "model-overloaded":
    "The model provider is overloaded right now; try again in a few minutes or pick another model.",
  "model-refused":
    "The model declined this request under its provider's content policy; rephrase it and try again.",
};

type ProviderCode = Exclude<ModelErrorCode, "model-timeout">;

function codeOfApiError(error: APICallError): ProviderCode {
  const status = error.statusCode;
  const body = error.responseBody ?? error.message;
  if (status === 401 || status === 403 || BAD_KEY.test(body)) return "model-auth";
  if (status === 429) return "model-rate-limited";
  if ((status === 400 || status === 413) && CONTEXT_TOO_LONG.test(body)) return "model-context-too-long";
  if (status === 503 || status === 529 || OVERLOADED.test(body)) return "model-overloaded";
  return "model-error";
}

/** A stream error that is not an APICallError (e.g. Anthropic's mid-stream `error` event). */
function codeOfOther(error: unknown): ProviderCode {
  const text = error instanceof Error ? error.message : (JSON.stringify(error) ?? "");
  if (OVERLOADED.test(text)) return "model-overloaded";
  if (CONTEXT_TOO_LONG.test(text)) return "model-context-too-long";
  return "model-error";
}

function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The code and sentence for a failed model call (an SDK error, a stream error part, a deadline). */
export function classifyModelError(error: unknown): ModelFailure {
  const detail = describeModelError(error);
  const last = RetryError.isInstance(error) ? error.lastError : error;
  if (last instanceof ModelTimeoutError) {
    const message =
      last.kind === "silence"
        ? `The model stopped answering (nothing for ${duration(last.limitMs)}), so the request was ended; try again.`
        : `The model call timed out after ${last.limitMs} ms (its total limit), so the request was ended; try again or ask for a smaller change.`;
    return { code: "model-timeout", message, detail };
  }
  const code = APICallError.isInstance(last) ? codeOfApiError(last) : codeOfOther(last);
  if (code === "model-error") return { code, message: `The model call failed: ${detail}.`, detail };
  return { code, message: SENTENCES[code], detail };
}

/** The failure of an answer the model declined (finish reason `content-filter`). */
export function refusedAnswer(): ModelFailure {
  return {
    code: "model-refused",
    message: SENTENCES["model-refused"],
    detail: "finish reason: content-filter",
  };
}
