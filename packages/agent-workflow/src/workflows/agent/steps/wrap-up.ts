import type { ModelMessage } from "ai";
import type { RunWriter } from "../../../live/run-writer.ts";
import { WRAP_UP_MARKER } from "../../../models/prompt-markers.ts";
import { callLlm, type LlmTurn } from "./call-llm.ts";

// Bounds the last words: the run is over, and a writer waits for them.
const WRAP_UP_TIMEOUT_MS = 20_000;

/**
 * The run's last words when it must end before its work is done (a limit, its time): one model
 * call without tools that tells the writer, in a sentence or two, what was done and what is left,
 * so a Continue (or the writer) knows where to pick up. Streams like any turn.
 */
export function wrapUp(args: {
  runId: string;
  firstId: number;
  turn: number;
  modelId: string;
  system: string;
  messages: ModelMessage[];
  tools: string[];
  callIdOf: (modelCallId: string) => string;
  /** Why the run ends, in a sentence addressed to the model. */
  situation: string;
  /** Stop cuts the last words short too. */
  signal: AbortSignal;
  writer: RunWriter;
}): Promise<LlmTurn> {
  return callLlm({
    runId: args.runId,
    firstId: args.firstId,
    turn: args.turn,
    modelId: args.modelId,
    system: `${args.system}\n\n${WRAP_UP_MARKER} ${args.situation} In one or two sentences, tell the writer what you did and what is left to do. Do not call tools.`,
    messages: args.messages,
    tools: args.tools,
    callIdOf: args.callIdOf,
    toolChoice: "none",
    runAbort: args.signal,
    timeoutMs: WRAP_UP_TIMEOUT_MS,
    writer: args.writer,
    ready: Promise.resolve(),
  });
}
