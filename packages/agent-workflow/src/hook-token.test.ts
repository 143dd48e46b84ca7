import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { HOOK_TOKEN_AUDIENCE, HOOK_TOKEN_TYPE, signHookToken, verifyHookToken } from "./hook-token.ts";

const key = new TextEncoder().encode("k".repeat(48));
const otherKey = new TextEncoder().encode("o".repeat(48));
const subject = { runId: "r1", toolCallId: "c1", toolName: "insertBlocks", userId: "u1", documentId: "d1" };
const sign = (now = Date.now(), ttlSeconds = 60) =>
  signHookToken(subject, key, { ttlSeconds, jti: "j1", now });

describe("hook tokens", () => {
  it("verify with every claim of the spec", async () => {
    const result = await verifyHookToken(await sign(), key);
    expect(result).toMatchObject({ ok: true, claims: { ...subject, jti: "j1", aud: HOOK_TOKEN_AUDIENCE } });
  });

  it("carry the tool call's deadline and are refused as late one millisecond after it", async () => {
    const now = Date.now();
    const deadline = now + 5_000;
    const token = await signHookToken(subject, key, { ttlSeconds: 60, jti: "j1", now, deadline });
    expect(await verifyHookToken(token, key, deadline)).toMatchObject({ ok: true, claims: { deadline } });
    expect(await verifyHookToken(token, key, deadline + 1)).toMatchObject({
      ok: false,
      reason: "late",
      message: "tool call deadline passed 1 ms ago",
    });
  });

  it("past both deadline and expiry are refused as late (the signature was checked first)", async () => {
    const now = Date.now() - 120_000;
    const token = await signHookToken(subject, key, {
      ttlSeconds: 60,
      jti: "j1",
      now,
      deadline: now + 1_000,
    });
    expect(await verifyHookToken(token, key)).toMatchObject({ ok: false, reason: "late" });
    // A forged payload on an expired token is still invalid, not late.
    const [header, payload] = token.split(".");
    const forged = `${header}.${payload}.${"A".repeat(43)}`;
    expect(await verifyHookToken(forged, key)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("are refused once expired", async () => {
    const token = await sign(Date.now() - 120_000, 60);
    expect(await verifyHookToken(token, key)).toMatchObject({ ok: false, reason: "expired" });
  });

  it("are refused when tampered with", async () => {
    const token = await sign();
    const [header, payload, signature] = token.split(".");
    const forged = JSON.parse(Buffer.from(payload ?? "", "base64url").toString());
    forged.documentId = "someone-elses";
    const tampered = `${header}.${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${signature}`;
    expect(await verifyHookToken(tampered, key)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("are refused when signed with another key", async () => {
    const token = await signHookToken(subject, otherKey, { ttlSeconds: 60, jti: "j1" });
    expect(await verifyHookToken(token, key)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("are refused for another audience or type", async () => {
    const base = new SignJWT({ ...subject }).setJti("j").setIssuedAt().setExpirationTime("1m");
    const wrongAudience = await base
      .setProtectedHeader({ alg: "HS256", typ: HOOK_TOKEN_TYPE })
      .setAudience("coauthor:session")
      .sign(key);
    expect(await verifyHookToken(wrongAudience, key)).toMatchObject({ ok: false, reason: "invalid" });
    const wrongType = await new SignJWT({ ...subject })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setJti("j")
      .setIssuedAt()
      .setExpirationTime("1m")
      .setAudience(HOOK_TOKEN_AUDIENCE)
      .sign(key);
    expect(await verifyHookToken(wrongType, key)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("are refused with alg none", async () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${encode({ alg: "none", typ: HOOK_TOKEN_TYPE })}.${encode({ ...subject, jti: "j", iat: now, exp: now + 60, aud: HOOK_TOKEN_AUDIENCE })}.`;
    expect(await verifyHookToken(unsigned, key)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("are refused when a claim is missing", async () => {
    const { documentId: _dropped, ...partial } = subject;
    const token = await new SignJWT({ ...partial })
      .setProtectedHeader({ alg: "HS256", typ: HOOK_TOKEN_TYPE })
      .setJti("j")
      .setIssuedAt()
      .setExpirationTime("1m")
      .setAudience(HOOK_TOKEN_AUDIENCE)
      .sign(key);
    expect(await verifyHookToken(token, key)).toMatchObject({ ok: false, reason: "invalid" });
  });
});
