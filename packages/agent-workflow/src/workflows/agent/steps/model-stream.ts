import { type ModelMessage, streamText } from "ai";
import { cacheablePrompt } from "../../../models/prompt-cache.ts";
import { resolveModel } from "../../../models/registry.ts";
import { modelTelemetry } from "../../../telemetry/model-calls.ts";
import { toolSet } from "../../../tool-set.ts";

// A model call's request and its stream, below the two that start one: a turn (call-llm.ts) and a
// planning agent's first turn asked for early (early-turn.ts), which the turn then takes over.

/** What a model call is asked: the model, the conversation and the tools it may call. */
export interface ModelRequest {
  modelId: string;
  system: string;
  messages: ModelMessage[];
  tools: string[];
  toolChoice?: "none";
}

/** Starts a model call's stream (the request goes out now; its parts wait until read). */
export function requestModelStream(request: ModelRequest, abortSignal: AbortSignal) {
  return streamText({
    model: resolveModel(request.modelId),
    ...cacheablePrompt(request.system, request.messages),
    tools: toolSet(request.tools),
    toolChoice: request.toolChoice,
    abortSignal,
    maxRetries: 2,
    telemetry: modelTelemetry("coauthor.model_call"),
  });
}

export type ModelStream = ReturnType<typeof requestModelStream>;
