import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { offlineOutput, offlineReviewTurn, pipelineAgentOf } from "./offline-pipeline.ts";
import { nextOfflineStepTurn, offlinePlan, offlineReflection } from "./offline-planning.ts";
import { blocksFromMarkdown, describeBlocks, readSoFar, type SeenToolResult } from "./offline-reading.ts";
import { EMIT_TIME_WORD, isContinuePrompt, offlineWrapUp } from "./offline-script.ts";
import {
  AGENT_OUTPUT_NAME,
  CURRENT_STEP_MARKER,
  PLAN_OUTPUT_NAME,
  STEP_TOOLS_MARKER,
  WRAP_UP_MARKER,
} from "./prompt-markers.ts";

export const OFFLINE_MODEL_ID = "offline";
const STREAMED_INPUT_TOOLS = new Set(["insertBlocks", "replaceBlock"]);
const INPUT_PIECE_CHARS = 12;
export const OFFLINE_MODEL_LABEL = "Offline demo model";

/** Marks the document Markdown inside a system prompt, so the offline model can answer chat questions. */
export const DOCUMENT_CONTEXT_OPEN = "<document>";
export const DOCUMENT_CONTEXT_CLOSE = "</document>";

/**
 * The writer's task: their last message, or, when that only says to continue (the panel's
 * Continue), the task before it — whose tool results, all of them, the model has seen since.
 */
function taskText(prompt: LanguageModelV4Prompt): { text: string; index: number } {
  let found = { text: "", index: -1 };
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== "user") continue;
    const text = message.content
      .map((part) => (part.type === "text" ? part.text : ""))
      .join("")
      .trim();
    if (found.index === -1) found = { text, index: i };
    if (!isContinuePrompt(text)) return { text, index: i };
  }
  return found;
}

/** The system prompt's text (the offline model reads the workflow's markers there). */
function systemText(prompt: LanguageModelV4Prompt): string {
  return prompt.map((message) => (message.role === "system" ? message.content : "")).join("\n");
}

/** Whether the workflow asks for the run's last words (its system prompt says the run ends). */
function wrappingUp(prompt: LanguageModelV4Prompt): boolean {
  return prompt.some((message) => message.role === "system" && message.content.includes(WRAP_UP_MARKER));
}

function toolResultsAfter(prompt: LanguageModelV4Prompt, index: number): SeenToolResult[] {
  const seen: SeenToolResult[] = [];
  for (const message of prompt.slice(index + 1)) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output;
      const value = output.type === "json" || output.type === "error-json" ? output.value : undefined;
      const error = output.type === "error-text" ? { ok: false, message: output.value } : undefined;
      seen.push({ toolName: part.toolName, output: value ?? error ?? null });
    }
  }
  return seen;
}

function documentContext(prompt: LanguageModelV4Prompt): string {
  for (const message of prompt) {
    if (message.role !== "system") continue;
    const start = message.content.indexOf(DOCUMENT_CONTEXT_OPEN);
    const end = message.content.lastIndexOf(DOCUMENT_CONTEXT_CLOSE);
    if (start >= 0 && end > start) return message.content.slice(start + DOCUMENT_CONTEXT_OPEN.length, end);
  }
  return "";
}

/** The plan step the workflow says the model is on (from the system prompt), if any. */
function currentStep(prompt: LanguageModelV4Prompt): { description: string; tools: string[] } | undefined {
  for (const message of prompt) {
    if (message.role !== "system") continue;
    const line = message.content.split("\n").find((l) => l.startsWith(CURRENT_STEP_MARKER));
    if (!line) continue;
    const rest = line.slice(CURRENT_STEP_MARKER.length).replace(/^\s*\d+\.\s*/, "");
    const [description = "", tools = ""] = rest.split(STEP_TOOLS_MARKER);
    return {
      description: description.trim(),
      tools: tools
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    };
  }
  return undefined;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function usage(input: number, output: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

/**
 * The built-in offline model: an AI SDK language model that understands a few
 * commands (see offline-script.ts), streams its text word by word and drives
 * the real loop with real tool calls. Deterministic; needs no network.
 */
export function createOfflineModel(options: { wordDelayMs: number; firstTokenMs?: number }): LanguageModelV4 {
  /** The time to a first token, before any answer (none by default). */
  const firstToken = (signal?: AbortSignal) =>
    options.firstTokenMs ? sleep(options.firstTokenMs, signal) : Promise.resolve();
  function plan(call: LanguageModelV4CallOptions) {
    const { text, index } = taskText(call.prompt);
    if (wrappingUp(call.prompt)) {
      return { text: offlineWrapUp(text, toolResultsAfter(call.prompt, index)), toolCall: undefined };
    }
    const seen = toolResultsAfter(call.prompt, index);
    const agent = pipelineAgentOf(systemText(call.prompt));
    if (call.responseFormat?.type === "json") {
      // Planner, reflection and pipeline agents' outputs ask for JSON (AI SDK structured output).
      const name = call.responseFormat.name;
      const answer =
        name === AGENT_OUTPUT_NAME
          ? offlineOutput(call.responseFormat.schema, agent?.agent ?? "agent", agent?.round ?? 1)
          : name === PLAN_OUTPUT_NAME
            ? offlinePlan(text)
            : offlineReflection(text, seen);
      return { text: JSON.stringify(answer), toolCall: undefined };
    }
    const available = new Set((call.tools ?? []).map((tool) => tool.name));
    if (available.size === 0) {
      return { text: describeBlocks(blocksFromMarkdown(documentContext(call.prompt))), toolCall: undefined };
    }
    if (available.has("addComment") && !available.has("insertBlocks")) {
      // A reviewer that comments but may not write ("Review with comments").
      return { ...offlineReviewTurn(seen), toolCallId: `offline_call_${seen.length + 1}` };
    }
    const turn = nextOfflineStepTurn(text, seen, currentStep(call.prompt));
    if (turn.toolCall && !available.has(turn.toolCall.toolName)) {
      // A pipeline agent that may not make this edit (a critic): it reads the document and reports.
      if (!seen.some((result) => result.toolName === "readDocument") && available.has("readDocument")) {
        return {
          text: "Reading the document.",
          toolCall: { toolName: "readDocument", input: {} },
          toolCallId: `offline_call_${seen.length + 1}`,
        };
      }
      return { text: `Reviewed: ${describeBlocks(readSoFar(seen).blocks)}` };
    }
    return { ...turn, toolCallId: `offline_call_${seen.length + 1}` };
  }

  return {
    specificationVersion: "v4",
    provider: "coauthor",
    modelId: OFFLINE_MODEL_ID,
    supportedUrls: {},
    async doGenerate(call) {
      await firstToken(call.abortSignal);
      const turn = plan(call);
      const content: Awaited<ReturnType<LanguageModelV4["doGenerate"]>>["content"] = [
        { type: "text", text: turn.text },
      ];
      if (turn.toolCall && "toolCallId" in turn) {
        content.push({
          type: "tool-call",
          toolCallId: turn.toolCallId,
          toolName: turn.toolCall.toolName,
          input: JSON.stringify(turn.toolCall.input),
        });
      }
      return {
        content,
        finishReason: { unified: turn.toolCall ? "tool-calls" : "stop", raw: undefined },
        usage: usage(call.prompt.length, turn.text.split(" ").length),
        warnings: [],
      };
    },
    async doStream(call) {
      const turn = plan(call);
      const words = turn.text.split(/(?<=\s)/);
      const signal = call.abortSignal;
      // Pulled part by part, like a provider's network stream: each word is stamped as it is
      // emitted, when the consumer asks for it.
      async function* parts(): AsyncGenerator<LanguageModelV4StreamPart> {
        await firstToken(signal);
        yield { type: "stream-start", warnings: [] };
        yield { type: "text-start", id: "t0" };
        for (const [i, word] of words.entries()) {
          // At full speed each word still comes in its own turn of the event loop, as the reads of
          // a provider's stream do: a model cannot hand over 5,000 words in one synchronous burst.
          if (i > 0) await (options.wordDelayMs > 0 ? sleep(options.wordDelayMs, signal) : nextTurn());
          const delta = word.startsWith(EMIT_TIME_WORD)
            ? word.replace(EMIT_TIME_WORD, String(Date.now()))
            : word;
          yield { type: "text-delta", id: "t0", delta };
        }
        yield { type: "text-end", id: "t0" };
        if (turn.toolCall && "toolCallId" in turn) {
          const input = JSON.stringify(turn.toolCall.input);
          if (STREAMED_INPUT_TOOLS.has(turn.toolCall.toolName)) {
            // Long inserts are "typed": their input streams in pieces, as a real model's does.
            const id = turn.toolCallId;
            yield { type: "tool-input-start", id, toolName: turn.toolCall.toolName };
            for (let at = 0; at < input.length; at += INPUT_PIECE_CHARS) {
              if (options.wordDelayMs > 0) await sleep(options.wordDelayMs, signal);
              yield { type: "tool-input-delta", id, delta: input.slice(at, at + INPUT_PIECE_CHARS) };
            }
            yield { type: "tool-input-end", id };
          }
          yield { type: "tool-call", toolCallId: turn.toolCallId, toolName: turn.toolCall.toolName, input };
        }
        yield {
          type: "finish",
          usage: usage(call.prompt.length, words.length),
          finishReason: { unified: turn.toolCall ? "tool-calls" : "stop", raw: undefined },
        };
      }
      const iterator = parts();
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          try {
            const next = await iterator.next();
            if (next.done) controller.close();
            else controller.enqueue(next.value);
          } catch (error) {
            controller.error(error);
          }
        },
        async cancel() {
          await iterator.return(undefined);
        },
      });
      return { stream };
    },
  };
}
