import { z } from "zod";

/**
 * Why a model call failed: the kind a failed model turn carries (with one
 * sentence for the writer). One kind per thing a writer can act on;
 * `model-error` is everything else.
 */
export const modelErrorCodeSchema = z.enum([
  /** The provider refused the server's API key (401/403, Gemini's API_KEY_INVALID). */
  "model-auth",
  /** Rate limit or quota (429) still hit after the automatic, retry-after-honouring retries. */
  "model-rate-limited",
  /** The prompt (document, conversation, tools) is larger than the model's context window. */
  "model-context-too-long",
  /** The provider is overloaded or unavailable (503, Anthropic's 529), after the retries. */
  "model-overloaded",
  /** The model declined to answer (refusal, content filter, safety block). */
  "model-refused",
  /** The model went silent for too long, or the call exceeded its total time limit. */
  "model-timeout",
  /** Anything else: unreachable provider, broken stream, unexpected status. */
  "model-error",
]);
export type ModelErrorCode = z.infer<typeof modelErrorCodeSchema>;
