import { afterEach, describe, expect, it } from "vitest";
import { resetAgentEnv } from "../env.ts";
import { usageOf } from "../usage.ts";
import { costMicroUsd, modelPrice } from "./prices.ts";

afterEach(() => {
  delete process.env.MODEL_PRICES;
  resetAgentEnv();
});

describe("run cost", () => {
  it("prices cached and cache-written input at their own rates, in millionths of a dollar", () => {
    // Claude Sonnet 4.5: $3 in, $0.30 cached, $3.75 cache write, $15 out per million tokens.
    const usage = {
      inputTokens: 10_000,
      cachedInputTokens: 8_000,
      cacheWriteTokens: 1_000,
      outputTokens: 500,
    };
    expect(costMicroUsd("anthropic:claude-sonnet-4-5", usage)).toBe(
      1_000 * 3 + 8_000 * 0.3 + 1_000 * 3.75 + 500 * 15,
    );
    expect(costMicroUsd("offline", usage)).toBe(0);
  });

  it("shows no cost for a model without a price, and takes prices from MODEL_PRICES", () => {
    const usage = { inputTokens: 1_000, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 1_000 };
    expect(costMicroUsd("compatible:llama3.2", usage)).toBeNull();
    process.env.MODEL_PRICES = JSON.stringify({ "compatible:llama3.2": { input: 0.1, output: 0.2 } });
    resetAgentEnv();
    expect(modelPrice("compatible:llama3.2")).toEqual({ input: 0.1, output: 0.2 });
    expect(costMicroUsd("compatible:llama3.2", usage)).toBe(300);
  });

  it("refuses a MODEL_PRICES that is not a price table, naming the variable", async () => {
    const { agentEnv } = await import("../env.ts");
    process.env.MODEL_PRICES = '{"openai:gpt-5-mini": {"input": -1, "output": 2}}';
    resetAgentEnv();
    expect(() => agentEnv()).toThrow(/MODEL_PRICES/);
    process.env.MODEL_PRICES = "not json";
    resetAgentEnv();
    expect(() => agentEnv()).toThrow(/MODEL_PRICES: not JSON/);
  });

  it("reads the cache figures a provider reports", () => {
    expect(
      usageOf({
        inputTokens: 100,
        outputTokens: 5,
        inputTokenDetails: { noCacheTokens: 20, cacheReadTokens: 70, cacheWriteTokens: 10 },
      }),
    ).toEqual({ inputTokens: 100, outputTokens: 5, cachedInputTokens: 70, cacheWriteTokens: 10 });
  });
});
