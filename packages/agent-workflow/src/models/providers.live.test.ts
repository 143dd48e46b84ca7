// The same checks the fakes pass, against the real services: streamed text and a
// tool call, structured output, and a refused key mapped to its error code.
// Run with `LIVE_PROVIDER_TESTS=1 pnpm --filter @coauthor/agent-workflow test:live`
// and the keys in the environment; `-t Anthropic` runs one provider.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { generateText, Output, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toolSet } from "../tool-set.ts";
import { fetchWithGoogleRetryDelay } from "./google-retry-delay.ts";
import { classifyModelError } from "./provider-errors.ts";

interface LiveProvider {
  name: string;
  keyVariable: string;
  model: (apiKey: string) => LanguageModelV4;
}

const env = process.env;
const LIVE: LiveProvider[] = [
  {
    name: "OpenAI Responses",
    keyVariable: "OPENAI_API_KEY",
    model: (apiKey) =>
      createOpenAI({ apiKey, baseURL: env.OPENAI_BASE_URL })(env.OPENAI_MODEL ?? "gpt-5-mini"),
  },
  {
    name: "Anthropic Messages",
    keyVariable: "ANTHROPIC_API_KEY",
    model: (apiKey) =>
      createAnthropic({ apiKey, baseURL: env.ANTHROPIC_BASE_URL })(
        env.ANTHROPIC_MODEL ?? "claude-sonnet-4-5",
      ),
  },
  {
    name: "Gemini",
    keyVariable: "GOOGLE_GENERATIVE_AI_API_KEY",
    model: (apiKey) =>
      createGoogleGenerativeAI({
        apiKey,
        baseURL: env.GOOGLE_GENERATIVE_AI_BASE_URL,
        fetch: fetchWithGoogleRetryDelay,
      })(env.GOOGLE_MODEL ?? "gemini-2.5-flash"),
  },
];

/** The key, or a failure that says why this live test cannot run. */
function keyOf(provider: LiveProvider): string {
  if (env.LIVE_PROVIDER_TESTS !== "1") {
    throw new Error("not run: set LIVE_PROVIDER_TESTS=1 to call the real providers (this costs money)");
  }
  const key = env[provider.keyVariable];
  if (!key) throw new Error(`not run: ${provider.keyVariable} is not set (pick providers with -t "<name>")`);
  return key;
}

describe.each(LIVE)("$name, live", (provider) => {
  it("streams text and calls a tool with input the tool accepts", async () => {
    const result = streamText({
      model: provider.model(keyOf(provider)),
      prompt:
        'Append a paragraph saying "Hello world" at the end of the document. Use the insertBlocks tool.',
      tools: toolSet(["insertBlocks"]),
      toolChoice: { type: "tool", toolName: "insertBlocks" },
    });
    const [call] = await result.toolCalls;
    expect(call?.toolName).toBe("insertBlocks");
    expect(call?.input).toMatchObject({
      markdown: expect.stringContaining("Hello world"),
      position: { at: "end" },
    });
  });

  it("returns structured output", async () => {
    const { output } = await generateText({
      model: provider.model(keyOf(provider)),
      prompt: "Plan greeting someone in two steps.",
      output: Output.object({
        schema: z.object({ goal: z.string(), steps: z.array(z.string()) }),
        name: "plan",
      }),
    });
    expect(output.steps.length).toBeGreaterThan(0);
  });

  it("maps a refused key to model-auth", async () => {
    keyOf(provider);
    let error: unknown;
    const result = streamText({
      model: provider.model("invalid-key-for-a-test"),
      prompt: "hi",
      maxRetries: 0,
      onError: (event) => {
        error = event.error;
      },
    });
    await result.consumeStream();
    expect(classifyModelError(error).code).toBe("model-auth");
  });
});
