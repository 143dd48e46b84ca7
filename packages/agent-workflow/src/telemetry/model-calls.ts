import type { Attributes } from "@opentelemetry/api";
import type { TokenUsage } from "../usage.ts";

/**
 * The AI SDK's telemetry settings for one of our model calls. Its spans appear only when the app
 * registered the SDK's OpenTelemetry integration (OTEL_EXPORTER_OTLP_ENDPOINT set). Prompts and
 * answers are not recorded: they hold the writers' documents.
 */
export function modelTelemetry(functionId: string) {
  return { functionId, recordInputs: false, recordOutputs: false };
}

/** What a finished model call adds to its span: how it ended, its tool calls and tokens. */
export function modelCallAttributes(turn: {
  status: string;
  errorCode?: string;
  toolCalls: readonly unknown[];
  usage: TokenUsage;
}): Attributes {
  return {
    "coauthor.outcome": turn.status,
    ...(turn.errorCode ? { "coauthor.error_code": turn.errorCode } : {}),
    "coauthor.tool_calls": turn.toolCalls.length,
    "coauthor.input_tokens": turn.usage.inputTokens,
    "coauthor.output_tokens": turn.usage.outputTokens,
  };
}
