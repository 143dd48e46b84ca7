// Every editor tool the agent may send, as each provider package actually puts
// it on the wire (captured by that provider's fake), checked against the
// provider's documented limits: a new tool or field cannot break a provider
// unnoticed.
import { toolDefinitions } from "@coauthor/tools/definitions";
import { streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolSet } from "../../tool-set.ts";
import type { FakeProviderServer } from "./fake-provider.ts";
import { anthropicProblems, geminiProblems, openAIProblems } from "./provider-schema-rules.ts";
import { PROVIDER_CASES, type ProviderCase } from "./providers.ts";

const ALL_TOOLS = Object.keys(toolDefinitions);

interface SentTool {
  name: string;
  schema: unknown;
  strict?: unknown;
}

type Body = Record<string, unknown>;
type Extract = (body: Body) => SentTool[];

// Where each protocol carries a tool's name and input schema.
const sentTools: Record<string, Extract> = {
  "openai-responses.json": (body) =>
    (body.tools as { name: string; parameters: unknown; strict: unknown }[]).map((t) => ({
      name: t.name,
      schema: t.parameters,
      strict: t.strict,
    })),
  "openai-chat.json": (body) =>
    (body.tools as { function: { name: string; parameters: unknown; strict?: unknown } }[]).map((t) => ({
      name: t.function.name,
      schema: t.function.parameters,
      strict: t.function.strict,
    })),
  "anthropic-messages.json": (body) =>
    (body.tools as { name: string; input_schema: unknown }[]).map((t) => ({
      name: t.name,
      schema: t.input_schema,
    })),
  "gemini.json": (body) =>
    (body.tools as { functionDeclarations: { name: string; parametersJsonSchema: unknown }[] }[]).flatMap(
      (t) => t.functionDeclarations.map((d) => ({ name: d.name, schema: d.parametersJsonSchema })),
    ),
};

const rules: Record<string, (name: string, schema: unknown) => string[]> = {
  "openai-responses.json": openAIProblems,
  "openai-chat.json": openAIProblems,
  "anthropic-messages.json": anthropicProblems,
  "gemini.json": geminiProblems,
};

async function capture(provider: ProviderCase, fake: FakeProviderServer): Promise<SentTool[]> {
  fake.enqueue({ kind: "turn", turn: { text: ["ok"] } });
  const result = streamText({
    model: provider.model(fake.baseURL, "test-key"),
    prompt: "hi",
    tools: toolSet(ALL_TOOLS),
    maxRetries: 0,
  });
  await result.consumeStream();
  const body = fake.requests.at(-1)?.body;
  if (!body) throw new Error(`${provider.name}: the fake received no request`);
  return (sentTools[provider.fixture] ?? (() => []))(body);
}

describe.each(PROVIDER_CASES)("tool schemas as $name sends them", (provider) => {
  let fake: FakeProviderServer;
  let tools: SentTool[];
  beforeAll(async () => {
    fake = await provider.start();
    tools = await capture(provider, fake);
  });
  afterAll(() => fake.close());

  it("carries every tool", () => {
    expect(tools.map((t) => t.name).sort()).toEqual([...ALL_TOOLS].sort());
  });

  it.each(ALL_TOOLS)("%s fits the provider's documented limits", (name) => {
    const sent = tools.find((t) => t.name === name);
    expect(sent).toBeDefined();
    expect((rules[provider.fixture] ?? (() => ["no rules"]))(name, sent?.schema)).toEqual([]);
  });

  if (provider.fixture.startsWith("openai")) {
    it("is sent without strict mode (optional fields stay optional, which strict mode forbids)", () => {
      expect(tools.every((t) => t.strict === false || t.strict === undefined)).toBe(true);
    });
  }
});

describe("the provider schema rules", () => {
  it("catch what the providers document as unsupported", () => {
    const literal = {
      type: "object",
      properties: { at: { type: "string", const: "end" } },
      required: ["at"],
    };
    expect(geminiProblems("insertBlocks", literal)).toEqual(['$.at: keyword "const"']);
    expect(openAIProblems("insertBlocks", literal)).toEqual([
      '$: objects need "additionalProperties": false',
    ]);
    expect(anthropicProblems("insert blocks", { anyOf: [] })).toHaveLength(2);
  });
});
