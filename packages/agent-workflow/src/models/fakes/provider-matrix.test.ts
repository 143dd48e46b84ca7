// Every provider package, unmodified, against a local fake of its own wire
// protocol: streamed text, a tool call's input in pieces, structured output, and
// each documented failure mapped to one error code.
import { createAnthropic } from "@ai-sdk/anthropic";
import type { ModelErrorCode } from "@coauthor/types";
import { generateText, Output, streamText } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { toolSet } from "../../tool-set.ts";
import { classifyModelError, refusedAnswer } from "../provider-errors.ts";
import type { FakeFailure, FakeProviderServer } from "./fake-provider.ts";
import { PROVIDER_CASES } from "./providers.ts";

const ARGS = '{"markdown":"Hello world","position":{"at":"end"}}';
const PIECES = [ARGS.slice(0, 14), ARGS.slice(14, 30), ARGS.slice(30)];
const planShape = z.object({ goal: z.string(), steps: z.array(z.string()) });

describe.each(PROVIDER_CASES)("$name against its fake", (provider) => {
  let fake: FakeProviderServer;
  beforeAll(async () => {
    fake = await provider.start();
  });
  afterAll(() => fake.close());
  afterEach(() => {
    fake.requests.length = 0;
  });
  const model = () => provider.model(fake.baseURL, "test-key");

  /** One streamed call: its parts, and the error it ended with (if any). */
  async function streamOnce(maxRetries = 0) {
    let error: unknown;
    const result = streamText({
      model: model(),
      prompt: "append Hello world",
      tools: toolSet(["insertBlocks"]),
      maxRetries,
      // Kept for the assertions (the SDK's default prints it).
      onError: (event) => {
        error = event.error;
      },
    });
    const parts = [];
    for await (const part of result.fullStream) parts.push(part);
    const finishReason = error === undefined ? await result.finishReason : undefined;
    return { parts, error, finishReason, result };
  }

  it("streams text and a tool call's input in pieces, and reports usage", async () => {
    fake.enqueue({
      kind: "turn",
      turn: {
        text: ["I'll ", "add ", "it."],
        toolCalls: [{ id: "call_1", name: "insertBlocks", argumentPieces: PIECES }],
        usage: { input: 11, output: 4 },
      },
    });
    const { parts, error, result } = await streamOnce();
    expect(error).toBeUndefined();
    const text = parts.flatMap((p) => (p.type === "text-delta" ? [p.text] : []));
    expect(text).toEqual(["I'll ", "add ", "it."]);
    const inputPieces = parts.flatMap((p) => (p.type === "tool-input-delta" ? [p.delta] : []));
    expect(inputPieces.join("")).toBe(ARGS);
    if (provider.streamsToolInput) expect(inputPieces.filter(Boolean)).toEqual(PIECES);
    const [call] = await result.toolCalls;
    expect(call).toMatchObject({ toolName: "insertBlocks", input: JSON.parse(ARGS) });
    expect(await result.usage).toMatchObject({ inputTokens: 11, outputTokens: 4 });
    // The request carried the tool, with its input schema, under the provider's own field names.
    expect(JSON.stringify(fake.requests[0]?.body)).toContain("insertBlocks");
  });

  it("returns structured output the way the service does", async () => {
    const plan = { goal: "Greet", steps: ["Say hello", "Say it again"] };
    const json = JSON.stringify(plan);
    fake.enqueue({ kind: "turn", turn: { text: [json.slice(0, 10), json.slice(10)] } });
    const { output } = await generateText({
      model: model(),
      prompt: "plan",
      output: Output.object({ schema: planShape, name: "plan" }),
      maxRetries: 0,
    });
    expect(output).toEqual(plan);
    expect(fake.requests[0]?.streamed).toBe(false);
    // Anthropic's Claude 4 models constrain the answer natively (output_config), so no tool is forced.
    if (provider.name.startsWith("Anthropic")) expect(fake.requests[0]?.body.tool_choice).toBeUndefined();
  });

  if (provider.name.startsWith("Anthropic")) {
    it("asks a model without native JSON output through a forced `json` tool", async () => {
      const plan = { goal: "Greet", steps: ["Say hello"] };
      fake.enqueue({ kind: "turn", turn: { text: [JSON.stringify(plan)] } });
      const { output } = await generateText({
        model: createAnthropic({ baseURL: fake.baseURL, apiKey: "test-key" })("claude-3-haiku-20240307"),
        prompt: "plan",
        output: Output.object({ schema: planShape, name: "plan" }),
        maxRetries: 0,
      });
      expect(output).toEqual(plan);
      expect(fake.requests[0]?.body.tool_choice).toMatchObject({ type: "any" });
      expect(fake.requests[0]?.body.tools).toEqual([expect.objectContaining({ name: "json" })]);
    });
  }

  const failures: [FakeFailure, ModelErrorCode][] = [
    [{ kind: "bad-key" }, "model-auth"],
    [{ kind: "rate-limit" }, "model-rate-limited"],
    [{ kind: "context-too-long" }, "model-context-too-long"],
    [{ kind: "overloaded" }, "model-overloaded"],
  ];
  it.each(failures)("maps the documented %o answer to %s", async (failure, code) => {
    fake.enqueue({ kind: "failure", failure });
    const { error } = await streamOnce();
    expect(error).toBeDefined();
    expect(classifyModelError(error).code).toBe(code);
  });

  it("maps a refused answer (HTTP 200, the provider's refusal / content-filter finish) to model-refused", async () => {
    fake.enqueue({ kind: "failure", failure: { kind: "refused" } });
    const { error, finishReason } = await streamOnce();
    expect(error).toBeUndefined();
    expect(finishReason).toBe("content-filter");
    expect(refusedAnswer().code).toBe("model-refused");
  });

  it("retries a rate limit after the wait the provider names, then succeeds", async () => {
    fake.enqueue(
      { kind: "failure", failure: { kind: "rate-limit", retryAfterSeconds: 1 } },
      { kind: "turn", turn: { text: ["Done."] } },
    );
    const { error, parts } = await streamOnce(2);
    expect(error).toBeUndefined();
    expect(parts.some((p) => p.type === "text-delta" && p.text === "Done.")).toBe(true);
    expect(fake.requests).toHaveLength(2);
    const waited = (fake.requests[1]?.at ?? 0) - (fake.requests[0]?.at ?? 0);
    // The provider's 1 s, not the SDK's 2 s default backoff.
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(1_900);
  });
});
