import { acquireStepLease } from "../../../step-lease.ts";
import { SPAN } from "../../../telemetry/tracing.ts";
import { STEP_RETRIES } from "./step-retries.ts";
import { freshCheckpoint, loadCheckpoint } from "./turns-checkpoint.ts";
import { continueTurns, type TurnsArgs, type TurnsResult, withWriter } from "./turns-loop.ts";

/**
 * Turns step: model turns until the model answers without tool calls (one
 * plan step, or a whole run without a plan). Each tool call is announced with
 * a signed single-use token and its result awaited right here, in this step:
 * a tool round trip costs no workflow replay, whatever the run's length. Its
 * progress is saved as it goes (see TurnsCheckpoint).
 */
export async function runTurns(args: TurnsArgs): Promise<TurnsResult> {
  "use step";
  // One executor at a time (a redelivered step waits), and the checkpoint read only once it holds.
  const lease = await acquireStepLease(args.runId);
  const resumed = await loadCheckpoint(args.runId, args.segment);
  const turns = withWriter(SPAN.runTurns, args.runId, (writer) =>
    continueTurns(
      args,
      resumed ?? freshCheckpoint(args.runId, args.segment, args.firstId, args.turnIndex),
      !!resumed,
      writer,
    ),
  );
  return lease.during(turns);
}

// A restart runs a step again and counts as one of its attempts: these steps resume from their
// checkpoint, so they may take a few more than the default three retries.
runTurns.maxRetries = STEP_RETRIES;
