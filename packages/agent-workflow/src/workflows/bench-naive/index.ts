import { createHook, getWorkflowMetadata, getWritable } from "workflow";
import { naiveHookToken } from "./hook-token-name.ts";
import { emitNaiveDeltas, emitNaiveFrame } from "./steps.ts";

/**
 * Benchmark reference only (never used by the product): the naive Workflow
 * DevKit loop — one step per frame, one `writer.write()` per delta, one hook
 * per tool call. `pnpm bench` compares the real agent loop against it.
 */
export async function naiveLoopWorkflow(args: { calls: number; deltas: number }): Promise<number> {
  "use workflow";
  const { workflowRunId: runId } = getWorkflowMetadata();
  const writable = getWritable<string>();
  let id = 0;
  id = await emitNaiveFrame(writable, runId, id, "text-delta", "");
  id = await emitNaiveDeltas(writable, runId, id, args.deltas);
  for (let call = 1; call <= args.calls; call++) {
    const hook = createHook<{ ok: boolean }>({ token: naiveHookToken(runId, call) });
    id = await emitNaiveFrame(writable, runId, id, "tool-call", String(call));
    await hook;
  }
  await emitNaiveFrame(writable, runId, id, "finish", "", true);
  return id;
}
