import type { ModelMessage, SystemModelMessage } from "ai";

// Providers cache a prompt's stable prefix (tools, system prompt, earlier turns) and bill it at a
// fraction of the price. OpenAI and Gemini do it on their own for a prefix that stays
// byte-identical from call to call; Anthropic caches up to a breakpoint the request marks. Each
// model turn marks two: after the system prompt (with the tools before it) and after the last
// message, so the next turn reads everything up to there from the cache. Other providers ignore
// the `anthropic` options.

const BREAKPOINT = { anthropic: { cacheControl: { type: "ephemeral" } } } as const;

/** The turn's prompt: the system prompt with a breakpoint after it, and one after the last message. */
export function cacheablePrompt(
  system: string,
  messages: ModelMessage[],
): { instructions: SystemModelMessage; messages: ModelMessage[] } {
  const last = messages.at(-1);
  const marked = last
    ? [{ ...last, providerOptions: { ...last.providerOptions, ...BREAKPOINT } } as ModelMessage]
    : [];
  return {
    instructions: { role: "system", content: system, providerOptions: BREAKPOINT },
    messages: [...messages.slice(0, -1), ...marked],
  };
}
