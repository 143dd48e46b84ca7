import { z } from "zod";

/**
 * The query a password-reset link lands on (`/reset-password`): Better Auth redirects there with
 * `?token=…`, or with `?error=…` when the link was invalid or expired. Anything else (repeated
 * keys, an overlong token) reads as no token.
 */
export const resetLinkQuerySchema = z.object({
  token: z.string().min(1).max(200).optional().catch(undefined),
  error: z.string().max(100).optional().catch("INVALID"),
});
export type ResetLinkQuery = z.infer<typeof resetLinkQuerySchema>;
