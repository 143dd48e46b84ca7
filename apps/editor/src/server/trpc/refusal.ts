import { TRPCError } from "@trpc/server";

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

/** A 400 answer saying `message`, with `reason` as its code in `data.reason`. */
export function badRequest(reason: string, message: string): TRPCError {
  return new TRPCError({ code: "BAD_REQUEST", message, cause: new RefusalReason(reason, message) });
}
