import { initTRPC, TRPCError } from "@trpc/server";
import { RefusalReason } from "./refusal";

// The app's tRPC base: every router of the app is built from it, and every procedure that needs a
// signed-in user is a `protectedProcedure`.

/** Who is calling: every procedure reads the user from here (set from the session cookie). */
export interface TRPCContext {
  userId: string | null;
}

const t = initTRPC.context<TRPCContext>().create({
  // An unexpected failure (a database error, say) is logged where it happened; the browser gets
  // no SQL, no stack, only that something went wrong. A refusal for what a request holds carries
  // the app's code for it as `data.reason` (refusal.ts).
  errorFormatter: ({ shape, error }) => {
    if (error.code === "INTERNAL_SERVER_ERROR")
      return { ...shape, message: "internal error", data: { ...shape.data, stack: undefined } };
    if (error.cause instanceof RefusalReason)
      return { ...shape, data: { ...shape.data, reason: error.cause.reason } };
    return shape;
  },
});

/** Builds a router; every feature router of the app is made with this. */
export const createTRPCRouter = t.router;
/** Makes server-side callers (no HTTP) of a router. */
export const createCallerFactory = t.createCallerFactory;

const isAuthed = t.middleware(({ ctx, next }) => {
  if (!ctx.userId) throw new TRPCError({ code: "UNAUTHORIZED", message: "no session" });
  return next({ ctx: { userId: ctx.userId } });
});

/** A procedure that requires a signed-in user; `ctx.userId` is a string inside. */
export const protectedProcedure = t.procedure.use(isAuthed);
