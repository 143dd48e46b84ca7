import { isDeepStrictEqual } from "node:util";
import { log } from "../../../log.ts";
import { type ModelRequest, type ModelStream, requestModelStream } from "./model-stream.ts";

// A planning agent's first model turn, asked for while the planner decides whether the task needs
// a plan (start-planning-agent.ts). Most tasks need none, and then the turn the step would ask for
// next is already under way: the writer's first words wait for the slower of the two calls, not
// for both one after the other. Its answer waits, unread, until the turn loop takes it — nothing
// of it goes out before the step's model-phase mark, as with any turn. With a plan it is dropped
// (aborted unread); the provider may still bill the prompt it had sent.

/** An early model call, taken by the first turn that asks for the same thing, or dropped. */
export interface EarlyTurn {
  /**
   * The call, when `request` is the one asked for early and it was not taken or dropped; `signal`
   * (Stop, the run's time limit, the turn's deadline) aborts it from now on.
   */
  take(request: ModelRequest, signal: AbortSignal): ModelStream | undefined;
  /** Aborts the call unless it was taken (idempotent). */
  drop(reason: string): void;
}

/** Why an early turn was aborted: a call dropped unread, not a failure of the run. */
class EarlyTurnDropped extends Error {
  override readonly name = "EarlyTurnDropped";
}

/**
 * Whether an abort reason is an early turn's drop. By name: the workflow's build gives step code
 * its own copy of this module, so a class check would miss one made there.
 */
export function isEarlyTurnDropped(reason: unknown): boolean {
  return reason instanceof Error && reason.name === "EarlyTurnDropped";
}

/** Asks for `request` now (`runAbort`: the run's Stop and time limit abort it too). */
export function askEarly(runId: string, request: ModelRequest, runAbort: AbortSignal): EarlyTurn {
  const controller = new AbortController();
  const stream = requestModelStream(request, AbortSignal.any([runAbort, controller.signal]));
  let state: "waiting" | "taken" | "dropped" = "waiting";
  const drop = (reason: string) => {
    if (state !== "waiting") return;
    state = "dropped";
    controller.abort(new EarlyTurnDropped(reason));
    // Read to its end so nothing of it stays buffered; its abort is what was asked for.
    stream
      .consumeStream({
        onError: (error) => {
          if (!controller.signal.aborted) log.warn("early model turn failed", { runId, error });
        },
      })
      .then(undefined, (error: unknown) => log.warn("early model turn failed", { runId, error }));
  };
  return {
    take(asked, signal) {
      if (state !== "waiting") return undefined;
      if (!sameRequest(asked, request)) {
        drop("the first turn asked for something else");
        return undefined;
      }
      state = "taken";
      if (signal.aborted) controller.abort(signal.reason);
      else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
      return stream;
    },
    drop,
  };
}

/**
 * Whether two requests are the same call. The conversation is compared message by message: the
 * same object, or equal ones (a request asked for by the route that started the run is built from
 * the run's input, not from the step's arguments).
 */
function sameRequest(a: ModelRequest, b: ModelRequest): boolean {
  return (
    a.modelId === b.modelId &&
    a.system === b.system &&
    a.toolChoice === b.toolChoice &&
    a.tools.length === b.tools.length &&
    a.tools.every((tool, i) => tool === b.tools[i]) &&
    a.messages.length === b.messages.length &&
    a.messages.every((message, i) => message === b.messages[i] || isDeepStrictEqual(message, b.messages[i]))
  );
}
