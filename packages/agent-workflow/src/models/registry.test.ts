import { generateText } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { resetAgentEnv } from "../env.ts";
import { startFakeAnthropic } from "./fakes/anthropic-messages-fake.ts";
import { startFakeGemini } from "./fakes/gemini-fake.ts";
import { startFakeOpenAIResponses } from "./fakes/openai-responses-fake.ts";
import { assertModelConfig, listModels, resolveModel } from "./registry.ts";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetAgentEnv();
});

describe("model configuration at start", () => {
  it("accepts the offline default and a configured provider named as default", () => {
    expect(() => assertModelConfig()).not.toThrow();
    process.env.OPENAI_COMPATIBLE_BASE_URL = "http://127.0.0.1:11434/v1";
    process.env.OPENAI_COMPATIBLE_MODEL = "llama3.2";
    resetAgentEnv();
    const compatible = listModels().find((m) => m.id.startsWith("compatible"));
    expect(compatible).toBeDefined();
    process.env.COAUTHOR_DEFAULT_MODEL = compatible?.id;
    resetAgentEnv();
    expect(() => assertModelConfig()).not.toThrow();
    expect(listModels()[0]?.id).toBe(compatible?.id);
  });

  it("refuses a default model that is not configured, and a malformed variable, naming it", () => {
    process.env.COAUTHOR_DEFAULT_MODEL = "openai:gpt-5-mini";
    resetAgentEnv();
    expect(() => assertModelConfig()).toThrow(/COAUTHOR_DEFAULT_MODEL/);
    delete process.env.COAUTHOR_DEFAULT_MODEL;
    process.env.AGENT_MAX_STEPS = "many";
    resetAgentEnv();
    expect(() => assertModelConfig()).toThrow(/AGENT_MAX_STEPS/);
  });
});

describe("provider base URLs", () => {
  it.each([
    ["OPENAI_API_KEY", "OPENAI_BASE_URL", "openai:gpt-5-mini", startFakeOpenAIResponses],
    ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "anthropic:claude-sonnet-4-5", startFakeAnthropic],
    [
      "GOOGLE_GENERATIVE_AI_API_KEY",
      "GOOGLE_GENERATIVE_AI_BASE_URL",
      "google:gemini-2.5-flash",
      startFakeGemini,
    ],
  ])(
    "%s with %s sends the configured model's requests there",
    async (keyVariable, urlVariable, id, startFake) => {
      const fake = await startFake();
      try {
        process.env[keyVariable] = "test-key";
        process.env[urlVariable] = fake.baseURL;
        resetAgentEnv();
        fake.enqueue({ kind: "turn", turn: { text: ["Hi."] } });
        const { text } = await generateText({ model: resolveModel(id), prompt: "hi", maxRetries: 0 });
        expect(text).toBe("Hi.");
        expect(fake.requests).toHaveLength(1);
      } finally {
        await fake.close();
      }
    },
  );

  it("refuses a base URL that is not a URL, naming the variable", () => {
    process.env.ANTHROPIC_BASE_URL = "api.anthropic.com";
    resetAgentEnv();
    expect(() => assertModelConfig()).toThrow(/ANTHROPIC_BASE_URL/);
  });
});
