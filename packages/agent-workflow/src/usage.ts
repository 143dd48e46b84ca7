// Token use as the run counts it: input and output, and the input a provider's prompt cache served
// (`cachedInputTokens`, billed cheaper) or stored (`cacheWriteTokens`, Anthropic bills it dearer).
// Free of imports but types: the workflow body sums usage on every replay.
import type { LanguageModelUsage } from "ai";

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
}

export const zeroUsage = (): TokenUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
});

/** Adds `more` into `to` (in place). */
export function addUsage(to: TokenUsage, more: TokenUsage): void {
  to.inputTokens += more.inputTokens;
  to.outputTokens += more.outputTokens;
  to.cachedInputTokens += more.cachedInputTokens;
  to.cacheWriteTokens += more.cacheWriteTokens;
}

/** What a provider reported for one call (zero for what it did not report). */
export function usageOf(usage: Partial<LanguageModelUsage>): TokenUsage {
  return {
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens ?? 0,
    cacheWriteTokens: usage.inputTokenDetails?.cacheWriteTokens ?? 0,
  };
}
