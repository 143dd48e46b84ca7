import { agentEnv } from "../env.ts";
import type { TokenUsage } from "../usage.ts";
import type { ModelPrice } from "./model-price.ts";

// What a run cost: its tokens times its model's prices. Prices are USD per million tokens, from
// the providers' price lists (November 2026); `MODEL_PRICES` (JSON, same shape, by model id)
// adds models or overrides these. A model with no price has no cost shown, never a guessed one.

const LISTED_PRICES: Record<string, ModelPrice> = {
  offline: { input: 0, output: 0 },
  "openai:gpt-5-mini": { input: 0.25, cachedInput: 0.025, output: 2 },
  "openai:gpt-5": { input: 1.25, cachedInput: 0.125, output: 10 },
  "anthropic:claude-sonnet-4-5": { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  "anthropic:claude-haiku-4-5": { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 },
  "google:gemini-2.5-flash": { input: 0.3, cachedInput: 0.075, output: 2.5 },
  "google:gemini-2.5-pro": { input: 1.25, cachedInput: 0.31, output: 10 },
};

/** The price of a model: configured, else listed, else unknown. */
export function modelPrice(modelId: string): ModelPrice | undefined {
  return agentEnv().MODEL_PRICES[modelId] ?? LISTED_PRICES[modelId];
}

/**
 * What `usage` cost on `modelId`, in millionths of a US dollar (an integer: sums stay exact), or
 * null when the model has no price. Input counts every input token once: cached and cache-written
 * tokens at their own price, the rest at the input price.
 */
export function costMicroUsd(modelId: string, usage: TokenUsage): number | null {
  const price = modelPrice(modelId);
  if (!price) return null;
  const plainInput = Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens);
  return Math.round(
    plainInput * price.input +
      usage.cachedInputTokens * (price.cachedInput ?? price.input) +
      usage.cacheWriteTokens * (price.cacheWrite ?? price.input) +
      usage.outputTokens * price.output,
  );
}
