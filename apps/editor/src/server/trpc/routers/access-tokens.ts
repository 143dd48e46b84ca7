import { accessTokenCreateInputSchema, accessTokenRevokeInputSchema } from "@coauthor/types";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import {
  createAccessToken,
  listAccessTokens,
  MAX_ACCESS_TOKENS_PER_USER,
  revokeAccessToken,
} from "@/server/auth/access-tokens";
import { protectedProcedure } from "../init";
import { refusal } from "../refusal";

// The account page's "Access tokens". tRPC's context comes from the session cookie only, so a
// token can never make, list or revoke tokens (nor call any other procedure).
export const accessTokensRouter = {
  /** The caller's tokens: name, first characters, created, expires, last used. */
  list: protectedProcedure.query(({ ctx }) => listAccessTokens(ctx.userId)),
  /** Makes a token; the answer holds the token itself, the only time it is ever sent. */
  create: protectedProcedure.input(accessTokenCreateInputSchema).mutation(async ({ ctx, input }) => {
    const created = await createAccessToken(ctx.userId, input);
    if (!created) {
      const message = `at most ${MAX_ACCESS_TOKENS_PER_USER} access tokens: revoke one first`;
      throw refusal("FORBIDDEN", "too-many-access-tokens", message);
    }
    return created;
  }),
  /** Revokes one of the caller's tokens: requests carrying it are refused from now on. */
  revoke: protectedProcedure.input(accessTokenRevokeInputSchema).mutation(async ({ ctx, input }) => {
    if (!(await revokeAccessToken(ctx.userId, input.id)))
      throw new TRPCError({ code: "NOT_FOUND", message: "access token not found" });
    return { id: input.id };
  }),
} satisfies TRPCRouterRecord;
