import { type HookTokenClaims, hookTokenClaimsSchema } from "@coauthor/types";
import { errors, jwtVerify, SignJWT } from "jose";

export const HOOK_TOKEN_AUDIENCE = "coauthor:tool-callback";
export const HOOK_TOKEN_TYPE = "coauthor-hook+jwt";
const ALGORITHM = "HS256";

/** What a hook token names: the run, the tool call, and who may answer it. */
export interface HookTokenSubject {
  runId: string;
  toolCallId: string;
  toolName: string;
  userId: string;
  documentId: string;
}

/** Signs a single-use hook token valid for `ttlSeconds`. */
export async function signHookToken(
  subject: HookTokenSubject,
  key: Uint8Array,
  options: { ttlSeconds: number; jti: string; now?: number },
): Promise<string> {
  const iat = Math.floor((options.now ?? Date.now()) / 1000);
  return new SignJWT({ ...subject })
    .setProtectedHeader({ alg: ALGORITHM, typ: HOOK_TOKEN_TYPE })
    .setJti(options.jti)
    .setIssuedAt(iat)
    .setExpirationTime(iat + options.ttlSeconds)
    .setAudience(HOOK_TOKEN_AUDIENCE)
    .sign(key);
}

/** Why a token was refused: `expired` and `invalid` are 401s. */
export type HookTokenFailure = { ok: false; reason: "expired" | "invalid"; message: string };

/** Verifies signature, algorithm, type, audience and expiry, then the claim shapes. */
export async function verifyHookToken(
  token: string,
  key: Uint8Array,
  now?: number,
): Promise<{ ok: true; claims: HookTokenClaims } | HookTokenFailure> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [ALGORITHM],
      audience: HOOK_TOKEN_AUDIENCE,
      typ: HOOK_TOKEN_TYPE,
      currentDate: now === undefined ? undefined : new Date(now),
      requiredClaims: ["jti", "iat", "exp", "aud"],
    });
    const claims = hookTokenClaimsSchema.safeParse(payload);
    if (!claims.success) return { ok: false, reason: "invalid", message: "token claims are malformed" };
    return { ok: true, claims: claims.data };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: "expired", message: "token expired" };
    if (error instanceof errors.JOSEError) return { ok: false, reason: "invalid", message: error.code };
    throw error;
  }
}
