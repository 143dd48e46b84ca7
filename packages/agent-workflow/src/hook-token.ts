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

/**
 * Signs a single-use hook token valid for `ttlSeconds`. `deadline` (epoch ms) is when the step stops
 * waiting for the result: it goes in the token so any instance can refuse a late result precisely,
 * while `exp` (whole seconds, with a margin) only bounds the token's life.
 */
export async function signHookToken(
  subject: HookTokenSubject,
  key: Uint8Array,
  options: { ttlSeconds: number; jti: string; now?: number; deadline?: number },
): Promise<string> {
  const iat = Math.floor((options.now ?? Date.now()) / 1000);
  const deadline = options.deadline === undefined ? {} : { deadline: options.deadline };
  return new SignJWT({ ...subject, ...deadline })
    .setProtectedHeader({ alg: ALGORITHM, typ: HOOK_TOKEN_TYPE })
    .setJti(options.jti)
    .setIssuedAt(iat)
    .setExpirationTime(iat + options.ttlSeconds)
    .setAudience(HOOK_TOKEN_AUDIENCE)
    .sign(key);
}

/**
 * Why a token was refused: `expired` and `invalid` are 401s; `late` (a genuine token whose tool
 * call's deadline has passed) is a 410, so the browser knows the result is no longer wanted.
 */
export type HookTokenFailure = { ok: false; reason: "expired" | "invalid" | "late"; message: string };

/** A genuine token's claims whose deadline has passed, as a refusal (or undefined when in time). */
function lateness(payload: unknown, at: number): HookTokenFailure | undefined {
  const claims = hookTokenClaimsSchema.safeParse(payload);
  const deadline = claims.success ? claims.data.deadline : undefined;
  if (deadline === undefined || at <= deadline) return undefined;
  return { ok: false, reason: "late", message: `tool call deadline passed ${at - deadline} ms ago` };
}

/** Verifies signature, algorithm, type, audience, expiry and deadline, then the claim shapes. */
export async function verifyHookToken(
  token: string,
  key: Uint8Array,
  now?: number,
): Promise<{ ok: true; claims: HookTokenClaims } | HookTokenFailure> {
  const at = now ?? Date.now();
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
    return lateness(claims.data, at) ?? { ok: true, claims: claims.data };
  } catch (error) {
    // jose checks the signature before the claims, so an expired token's payload is genuine.
    if (error instanceof errors.JWTExpired)
      return lateness(error.payload, at) ?? { ok: false, reason: "expired", message: "token expired" };
    if (error instanceof errors.JOSEError) return { ok: false, reason: "invalid", message: error.code };
    throw error;
  }
}
