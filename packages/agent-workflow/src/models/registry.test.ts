import { afterEach, describe, expect, it } from "vitest";
import { resetAgentEnv } from "../env.ts";
import { assertModelConfig, listModels } from "./registry.ts";

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
