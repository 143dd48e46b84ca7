// How a run ends when something other than its work ends it, imported by the workflow body. This
// file must stay free of imports: the workflow bundle is evaluated on every replay, and every
// dependency it pulls in costs time.

/** The abort reason when the whole-run time limit passed (not the writer's Stop). */
export const RUN_TIMEOUT_REASON = "run-timeout";

/** How a run ends when Stop or the time limit interrupts it (`reason`: the abort's reason). */
export function interruptedOutcome(reason: string | undefined, runTimeoutMs: number) {
  return reason === RUN_TIMEOUT_REASON
    ? { status: "timeout" as const, summary: `Stopped after ${runTimeoutMs / 1000} s (the run time limit).` }
    : { status: "cancelled" as const, summary: "Stopped by the writer." };
}

/** How a run ends when it reaches one of its limits (`limit`: "25 model turns", "100 tool calls"). */
export function limitOutcome(limit: string) {
  return { status: "limit" as const, summary: `Stopped at the limit of ${limit}.` };
}

// A continued run re-sends the whole conversation to the model; past this size (about half a
// million tokens) no model takes it, so the run is not offered for continuing.
const MAX_CONTINUABLE_CHARS = 2_000_000;

/** The conversation a Continue resumes, when an ended run can be continued (else undefined). */
export function continuableConversation<M>(status: string, messages: M[]): M[] | undefined {
  if (status !== "limit" && status !== "timeout") return undefined;
  return JSON.stringify(messages).length <= MAX_CONTINUABLE_CHARS ? messages : undefined;
}
