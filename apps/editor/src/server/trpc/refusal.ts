import { type TRPC_ERROR_CODE_KEY, TRPCError } from "@trpc/server";

// A request refused for what it holds, with a code the client can act on beside tRPC's own
// ("BAD_REQUEST"): the error formatter (init.ts) sends it as `data.reason`.

/** Why a request was refused, carried as the TRPCError's cause. */
export class RefusalReason extends Error {
  /** The app's code for the refusal, e.g. "invalid-content". */
  readonly reason: string;

  constructor(reason: string, message: string) {
    super(message);
    this.name = "RefusalReason";
    this.reason = reason;
  }
}

/** An answer of tRPC's `code` saying `message`, with `reason` as its code in `data.reason`. */
export function refusal(code: TRPC_ERROR_CODE_KEY, reason: string, message: string): TRPCError {
  return new TRPCError({ code, message, cause: new RefusalReason(reason, message) });
}

/** A 400 answer saying `message`, with `reason` as its code in `data.reason`. */
export function badRequest(reason: string, message: string): TRPCError {
  return refusal("BAD_REQUEST", reason, message);
}
