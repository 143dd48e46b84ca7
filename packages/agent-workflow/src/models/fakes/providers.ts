// Test helper: each provider package paired with the fake that speaks its
// protocol, so one matrix of tests runs over all of them.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { fetchWithGoogleRetryDelay } from "../google-retry-delay.ts";
import { startFakeAnthropic } from "./anthropic-messages-fake.ts";
import type { FakeProviderServer } from "./fake-provider.ts";
import { startFakeGemini } from "./gemini-fake.ts";
import { startFakeOpenAIChat } from "./openai-chat-fake.ts";
import { startFakeOpenAIResponses } from "./openai-responses-fake.ts";

/** A provider under test: how to start its fake and build its model against a base URL. */
export interface ProviderCase {
  name: string;
  /** The fixture (under fixtures/) holding the provider's documented example stream. */
  fixture: string;
  start: () => Promise<FakeProviderServer>;
  model: (baseURL: string, apiKey: string) => LanguageModelV4;
  /** Whether the protocol streams a tool call's input in pieces (Gemini sends a call whole). */
  streamsToolInput: boolean;
}

export const PROVIDER_CASES: ProviderCase[] = [
  {
    name: "OpenAI Responses (openai(...))",
    fixture: "openai-responses.json",
    start: startFakeOpenAIResponses,
    model: (baseURL, apiKey) => createOpenAI({ baseURL, apiKey })("gpt-5-mini"),
    streamsToolInput: true,
  },
  {
    name: "OpenAI chat completions (openai.chat(...))",
    fixture: "openai-chat.json",
    start: startFakeOpenAIChat,
    model: (baseURL, apiKey) => createOpenAI({ baseURL, apiKey }).chat("gpt-4.1-mini"),
    streamsToolInput: true,
  },
  {
    name: "Anthropic Messages",
    fixture: "anthropic-messages.json",
    start: startFakeAnthropic,
    model: (baseURL, apiKey) => createAnthropic({ baseURL, apiKey })("claude-sonnet-4-5"),
    streamsToolInput: true,
  },
  {
    name: "Gemini streamGenerateContent",
    fixture: "gemini.json",
    start: startFakeGemini,
    model: (baseURL, apiKey) =>
      createGoogleGenerativeAI({ baseURL, apiKey, fetch: fetchWithGoogleRetryDelay })("gemini-2.5-flash"),
    streamsToolInput: false,
  },
];
