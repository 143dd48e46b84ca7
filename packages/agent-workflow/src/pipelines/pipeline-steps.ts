import type { AgentOutput, PipelineDefinition } from "@coauthor/types";
import { generateText, type ModelMessage } from "ai";
import { readDocumentMarkdown } from "../document-reader.ts";
import { openRunWriter } from "../live/run-writer.ts";
import { log } from "../log.ts";
import { DOCUMENT_CONTEXT_CLOSE, DOCUMENT_CONTEXT_OPEN } from "../models/offline-model.ts";
import { AGENT_OUTPUT_NAME } from "../models/prompt-markers.ts";
import { resolveModel } from "../models/registry.ts";
import { type CallUsage, structuredCall } from "../planning/index.ts";
import { abortRun, runSignal } from "../run-control.ts";
import { modelTelemetry } from "../telemetry/model-calls.ts";
import { SPAN, withSpan } from "../telemetry/tracing.ts";
import { toolSet } from "../tool-set.ts";
import { usageOf, zeroUsage } from "../usage.ts";
import type { AgentWorkflowInput } from "../workflows/agent/types.ts";
import { openRun, type RunStart } from "./open-run.ts";
import { outputSchema } from "./output-schema.ts";

// The steps a pipeline run takes besides the turns step every agent shares: its start, an
// agent's structured output, the document snapshot a parallel block reads and one branch of it.

/**
 * A pipeline's first step when it does not open with a planning agent (which opens the run in its
 * own first step): arms the run time limit, announces the run and its tree, settles the tools.
 */
export async function startPipeline(args: {
  runId: string;
  input: AgentWorkflowInput;
  definition: PipelineDefinition;
}): Promise<RunStart> {
  "use step";
  return withSpan(SPAN.pipelineStart, args.runId, () => startPipelineNow(args), {
    "coauthor.pipeline": args.definition.name,
  });
}

async function startPipelineNow(args: Parameters<typeof startPipeline>[0]): ReturnType<typeof startPipeline> {
  const writer = openRunWriter(args.runId);
  try {
    const start = await openRun(args.runId, args.input, args.definition, writer);
    await writer.flush();
    return start;
  } finally {
    writer.release();
  }
}

/** An agent's structured output, validated against what it declared (or why there is none). */
export async function agentOutput(args: {
  runId: string;
  modelId: string;
  system: string;
  messages: ModelMessage[];
  tools: string[];
  output: AgentOutput;
  timeoutMs: number;
}): Promise<{ output?: Record<string, unknown>; usage: CallUsage; failure?: string }> {
  "use step";
  return withSpan(SPAN.pipelineAgentOutput, args.runId, () => agentOutputNow(args), {
    "coauthor.model_id": args.modelId,
  });
}

async function agentOutputNow(args: Parameters<typeof agentOutput>[0]): ReturnType<typeof agentOutput> {
  const runAbort = runSignal(args.runId);
  try {
    return await structuredCall(
      {
        modelId: args.modelId,
        system: args.system,
        messages: args.messages,
        tools: toolSet(args.tools),
        signal: AbortSignal.any([runAbort, AbortSignal.timeout(args.timeoutMs)]),
        runAbort,
      },
      {
        system: `${args.system}\n\nAnswer with your result as the JSON object asked for.`,
        schema: outputSchema(args.output),
        name: AGENT_OUTPUT_NAME,
        maxRetries: 2,
        what: "output",
      },
    );
  } catch (error) {
    log.info("agent output interrupted", { runId: args.runId, error });
    return { usage: zeroUsage(), failure: "stopped" };
  }
}

/** The document as the server has it now: what the branches of a parallel block read. */
export async function documentSnapshot(documentId: string): Promise<string> {
  "use step";
  return readDocumentMarkdown(documentId);
}

/** What one branch of a parallel block said and answered. */
export interface BranchResult {
  text: string;
  output?: Record<string, unknown>;
  usage: CallUsage;
  failure?: string;
}

/** The abort key of a parallel block: one branch's failure stops its siblings in this process. */
const blockKey = (runId: string, block: string) => `${runId}#${block}`;

/**
 * One agent of a parallel block: it reads the snapshot taken when the block began (no tools: it
 * proposes, the writer after the block applies) and answers, with its output when it declares
 * one. Its text goes out with the block's end, so branches never interleave on the stream.
 */
export async function parallelAgent(args: {
  runId: string;
  block: string;
  modelId: string;
  system: string;
  snapshot: string;
  prompt: string;
  output?: AgentOutput;
  timeoutMs: number;
}): Promise<BranchResult> {
  "use step";
  return withSpan(SPAN.pipelineParallelAgent, args.runId, () => parallelAgentNow(args), {
    "coauthor.model_id": args.modelId,
    "coauthor.pipeline_block": args.block,
  });
}

async function parallelAgentNow(args: Parameters<typeof parallelAgent>[0]): ReturnType<typeof parallelAgent> {
  const runAbort = AbortSignal.any([runSignal(args.runId), runSignal(blockKey(args.runId, args.block))]);
  const system = `${args.system}\n\nThe document:\n${DOCUMENT_CONTEXT_OPEN}\n${args.snapshot}\n${DOCUMENT_CONTEXT_CLOSE}`;
  const messages: ModelMessage[] = [{ role: "user", content: args.prompt }];
  const fail = (failure: string, usage: CallUsage): BranchResult => {
    // One branch failing ends the block: its siblings in this process stop now.
    abortRun(blockKey(args.runId, args.block), "a sibling branch failed");
    return { text: "", usage, failure };
  };
  try {
    if (args.output) {
      const answered = await structuredCall(
        {
          modelId: args.modelId,
          system,
          messages,
          tools: {},
          signal: AbortSignal.any([runAbort, AbortSignal.timeout(args.timeoutMs)]),
          runAbort,
        },
        { system, schema: outputSchema(args.output), name: AGENT_OUTPUT_NAME, maxRetries: 2, what: "output" },
      );
      if (answered.failure || !answered.output) return fail(answered.failure ?? "no output", answered.usage);
      return { text: "", output: answered.output, usage: answered.usage };
    }
    const result = await generateText({
      model: resolveModel(args.modelId),
      system,
      messages,
      abortSignal: AbortSignal.any([runAbort, AbortSignal.timeout(args.timeoutMs)]),
      maxRetries: 2,
      telemetry: modelTelemetry("coauthor.parallel_agent"),
    });
    return {
      text: result.text,
      usage: usageOf(result.usage),
    };
  } catch (error) {
    return fail(error instanceof Error ? error.message.slice(0, 300) : String(error), zeroUsage());
  }
}
