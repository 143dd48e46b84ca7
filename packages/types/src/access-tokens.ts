import { z } from "zod";
import { runStatusSchema } from "./events.ts";

// Personal access tokens: a program (the `coauthor` CLI, a script) starts and follows agent runs
// as its writer, with `Authorization: Bearer <token>`, and nothing else.

/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const ACCESS_TOKEN_PREFIX = "coa_";
/** How many leading characters of a token the account page shows to tell tokens apart. */
export const ACCESS_TOKEN_SHOWN_CHARS = 12;
/** The lifetimes a token may be given: every token expires. */
export const ACCESS_TOKEN_EXPIRY_DAYS = [7, 30, 90] as const;

/** A token as it is sent: the prefix, then 43 base64url characters (32 random bytes). */
export const accessTokenSchema = z.string().regex(/^coa_[A-Za-z0-9_-]{43}$/, "not an access token");

/** Input of `accessTokens.create`. */
export const accessTokenCreateInputSchema = z
  .object({
    name: z.string().trim().min(1, "name is empty").max(100),
    expiresInDays: z.union(ACCESS_TOKEN_EXPIRY_DAYS.map((days) => z.literal(days))),
  })
  .strict();
export type AccessTokenCreateInput = z.infer<typeof accessTokenCreateInputSchema>;

/** Input of `accessTokens.revoke`. */
export const accessTokenRevokeInputSchema = z.object({ id: z.string().min(1).max(100) }).strict();

/** A token as the account page lists it (never the token itself); times are ISO strings. */
export const accessTokenSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The token's first characters, as it was shown once. */
  prefix: z.string(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type AccessTokenSummary = z.infer<typeof accessTokenSummarySchema>;

/** `GET /api/llm/agent/:runId`: where a run stands (a program asks after its stream ends). */
export const runStatusResponseSchema = z.object({
  runId: z.string(),
  documentId: z.string(),
  status: runStatusSchema,
  /** Its error code or finish summary, once it ended. */
  summary: z.string().nullable(),
});
export type RunStatusResponse = z.infer<typeof runStatusResponseSchema>;
