import { isServerTool } from "@coauthor/types";
import type { RunWriter } from "../../../live/run-writer.ts";
import { offerToServer, runServerTool } from "../../../server-tools.ts";
import { startToolRoundTrip } from "../../../telemetry/tool-round-trip.ts";
import { type AwaitedToolResult, listenForToolResult } from "../../../tool-results.ts";
import type { RunEventBody } from "../types.ts";
import type { RunWatch } from "./run-watch.ts";
import { type ToolCallAudience, toolCallEvent } from "./tool-call-event.ts";
import { summarizeResult, toolMessage } from "./tool-messages.ts";
import type { PendingCall, TurnsCheckpoint } from "./turns-checkpoint.ts";
import { framesOf } from "./write-frames.ts";

// One tool call's round trip, inside a turns step: announced to the browser with a signed
// single-use token, its result awaited (woken in this process by the callback route, signalled
// from another instance, or read from the store), then delivered into the conversation.

/**
 * A tool call's id as the browser and the store see it: the model's own id is unique only within
 * one conversation (a pipeline's agents each have theirs, and may repeat ids), so it is prefixed
 * with the turns step that announced it.
 */
export const runCallId = (segment: number, modelCallId: string) => `s${segment}.${modelCallId}`;

/**
 * Announces a tool call (the first time: numbered, counted and saved before anyone sees it; after
 * a restart: again under its own id and token, which clients dedupe) and awaits its result until
 * its deadline, Stop or the run's time limit (the step's one subscription, `watch`).
 */
export async function awaitToolCall(args: {
  state: TurnsCheckpoint;
  pending: PendingCall;
  /** Its id in the run (see `runCallId`). */
  callId: string;
  audience: ToolCallAudience;
  writer: RunWriter;
  watch: RunWatch;
  checkpoint: () => Promise<void>;
}): Promise<AwaitedToolResult> {
  const { state, pending, writer } = args;
  if (isServerTool(pending.call.toolName)) return runOnServer(state, pending, args.callId);
  // Listening before the call goes out: a result cannot arrive unseen. After the turn's last call
  // comes the next model turn (its model-phase mark can ride on the result's claim).
  const listener = listenForToolResult(state.runId, args.callId, {
    modelTurnNext: state.pending.length === 1 && state.pending[0] === pending,
  });
  const fresh = !pending.announced;
  const takeover = new AbortController();
  const roundTrip = startToolRoundTrip(state.runId, args.callId, pending.call.toolName);
  try {
    if (!pending.announced) {
      const event = await toolCallEvent({ ...pending.call, toolCallId: args.callId }, args.audience);
      pending.announced = { id: state.nextId, event };
      state.nextId++;
      state.toolCalls++;
      // Saved before anyone sees it: a step run again from here announces the same call (same id,
      // same token) and takes its result, so a tool the browser ran is never lost.
      await args.checkpoint();
    }
    writer.send(framesOf(state.runId, pending.announced.id, [pending.announced.event]));
    // A call no tab takes is run by the server (server-tools.ts); a result from anyone ends the offer.
    offerToServer(
      {
        runId: state.runId,
        toolCallId: args.callId,
        toolName: pending.call.toolName,
        input: pending.call.input,
      },
      takeover.signal,
    );
    const answer = await listener.wait({ signal: args.watch.until(pending.announced.event.deadline), fresh });
    roundTrip.end(answer.kind);
    return answer;
  } finally {
    takeover.abort();
    listener.close();
    roundTrip.end("error"); // Only when the wait threw: a settled round trip is ended above.
  }
}

/**
 * Runs a tool the server runs itself (the comment and version tools): no tab sees the call, the result is the
 * server's. Counted like any call; run again after a restart, it changes nothing twice (the
 * executor derives what it creates from the call's id).
 */
async function runOnServer(
  state: TurnsCheckpoint,
  pending: PendingCall,
  callId: string,
): Promise<AwaitedToolResult> {
  const roundTrip = startToolRoundTrip(state.runId, callId, pending.call.toolName);
  if (!pending.announced) state.toolCalls++;
  const result = await runServerTool({
    runId: state.runId,
    toolCallId: callId,
    toolName: pending.call.toolName,
    input: pending.call.input,
  });
  roundTrip.end("result");
  return { kind: "result", result };
}

/**
 * Adds a tool call's result to the conversation and returns its `tool-result` event. The callback
 * route validated the result with the tool's zod schema before recording it. Not saved here: the
 * result is in the store, so a resumed step takes it from there again.
 */
export function answerToolCall(
  state: TurnsCheckpoint,
  pending: PendingCall,
  callId: string,
  result: unknown,
): RunEventBody {
  const verdict = summarizeResult(pending.call.toolName, result);
  state.messages.push(toolMessage(pending.call, result));
  return { type: "tool-result", toolCallId: callId, ...verdict };
}
