import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { ModelInfo } from "@coauthor/types";
import { createGateway } from "ai";
import { agentEnv } from "../env.ts";
import { fetchWithGoogleRetryDelay } from "./google-retry-delay.ts";
import { createOfflineModel, OFFLINE_MODEL_ID, OFFLINE_MODEL_LABEL } from "./offline-model.ts";

interface ModelEntry extends ModelInfo {
  create: () => LanguageModelV4;
}

// Models registered in-process by tests (a scripted model) win over env ones.
const OVERRIDES = Symbol.for("coauthor.model-overrides");
type Overrides = Map<string, () => LanguageModelV4>;

function overrides(): Overrides {
  const holder = globalThis as typeof globalThis & { [OVERRIDES]?: Overrides };
  holder[OVERRIDES] ??= new Map();
  return holder[OVERRIDES];
}

/** Registers a model under `id` for this process (tests: scripted or mock models). */
export function registerModel(id: string, create: () => LanguageModelV4): () => void {
  overrides().set(id, create);
  return () => overrides().delete(id);
}

function configuredModels(): ModelEntry[] {
  const env = agentEnv();
  const models: ModelEntry[] = [];
  if (env.OPENAI_API_KEY) {
    const openai = createOpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL });
    models.push({
      id: `openai:${env.OPENAI_MODEL}`,
      label: `OpenAI ${env.OPENAI_MODEL}`,
      offline: false,
      create: () => openai(env.OPENAI_MODEL),
    });
  }
  if (env.ANTHROPIC_API_KEY) {
    const anthropic = createAnthropic({ apiKey: env.ANTHROPIC_API_KEY, baseURL: env.ANTHROPIC_BASE_URL });
    models.push({
      id: `anthropic:${env.ANTHROPIC_MODEL}`,
      label: `Anthropic ${env.ANTHROPIC_MODEL}`,
      offline: false,
      create: () => anthropic(env.ANTHROPIC_MODEL),
    });
  }
  if (env.GOOGLE_GENERATIVE_AI_API_KEY) {
    const google = createGoogleGenerativeAI({
      apiKey: env.GOOGLE_GENERATIVE_AI_API_KEY,
      baseURL: env.GOOGLE_GENERATIVE_AI_BASE_URL,
      fetch: fetchWithGoogleRetryDelay,
    });
    models.push({
      id: `google:${env.GOOGLE_MODEL}`,
      label: `Google ${env.GOOGLE_MODEL}`,
      offline: false,
      create: () => google(env.GOOGLE_MODEL),
    });
  }
  if (env.OPENAI_COMPATIBLE_BASE_URL) {
    const compatible = createOpenAICompatible({
      name: "openai-compatible",
      baseURL: env.OPENAI_COMPATIBLE_BASE_URL,
      apiKey: env.OPENAI_COMPATIBLE_API_KEY,
    });
    models.push({
      id: `compatible:${env.OPENAI_COMPATIBLE_MODEL}`,
      label: `${env.OPENAI_COMPATIBLE_MODEL} (OpenAI-compatible)`,
      offline: false,
      create: () => compatible.chatModel(env.OPENAI_COMPATIBLE_MODEL),
    });
  }
  if (env.AI_GATEWAY_API_KEY) {
    const gateway = createGateway({ apiKey: env.AI_GATEWAY_API_KEY });
    models.push({
      id: `gateway:${env.AI_GATEWAY_MODEL}`,
      label: `AI Gateway ${env.AI_GATEWAY_MODEL}`,
      offline: false,
      create: () => gateway(env.AI_GATEWAY_MODEL),
    });
  }
  models.push({
    id: OFFLINE_MODEL_ID,
    label: OFFLINE_MODEL_LABEL,
    offline: true,
    create: () =>
      createOfflineModel({
        wordDelayMs: env.OFFLINE_MODEL_WORD_DELAY_MS,
        firstTokenMs: env.OFFLINE_MODEL_FIRST_TOKEN_MS,
      }),
  });
  return models;
}

/** The models the server allows, default first. */
export function listModels(): ModelInfo[] {
  const models = configuredModels().map(({ id, label, offline }) => ({ id, label, offline }));
  const preferred = agentEnv().COAUTHOR_DEFAULT_MODEL;
  const index = preferred ? models.findIndex((m) => m.id === preferred) : -1;
  if (index > 0) models.unshift(...models.splice(index, 1));
  return models;
}

/**
 * Checks the model configuration at start: the environment parses and the
 * default model, when named, is one this server offers. Throws naming the variable.
 */
export function assertModelConfig(): void {
  const preferred = agentEnv().COAUTHOR_DEFAULT_MODEL;
  const offered = listModels().map((m) => m.id);
  if (preferred && !offered.includes(preferred)) {
    throw new Error(
      `COAUTHOR_DEFAULT_MODEL: "${preferred}" is not a configured model (configured: ${offered.join(", ")})`,
    );
  }
}

/** The id used when a request names no model. */
export function defaultModelId(): string {
  return listModels()[0]?.id ?? OFFLINE_MODEL_ID;
}

/** True when the server allows `id` (registered overrides included). */
export function isAllowedModel(id: string): boolean {
  return overrides().has(id) || configuredModels().some((m) => m.id === id);
}

/** Builds the language model for `id`; throws for an id the server does not allow. */
export function resolveModel(id: string): LanguageModelV4 {
  const override = overrides().get(id);
  if (override) return override();
  const entry = configuredModels().find((m) => m.id === id);
  if (!entry) throw new Error(`model "${id}" is not configured on this server`);
  return entry.create();
}
