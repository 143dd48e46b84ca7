import { runEditorTool } from "@coauthor/tools";
import type { RunEvent } from "@coauthor/types";
import { SignJWT } from "jose";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { serverHookTokenKey } from "../lib/server-keys.ts";
import { expect, test } from "../lib/test.ts";

type ToolCall = Extract<RunEvent, { type: "tool-call" }>;

function decodeClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());
}

async function mint(claims: Record<string, unknown>, key: Uint8Array, exp: number) {
  const { iat: _iat, exp: _exp, aud, jti, ...rest } = claims;
  return new SignJWT(rest)
    .setProtectedHeader({ alg: "HS256", typ: "coauthor-hook+jwt" })
    .setJti(String(jti))
    .setAudience(String(aud))
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(key);
}

test("the callback refuses every bad delivery with the right status before resuming anything", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const stranger = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument("Some text.");
  const otherDocument = await client.createDocument("Other.");
  const seen: Record<string, number> = {};

  const run = await client.runAgent(documentId, 'append "Checked"', {
    answer: async (event: ToolCall, editor) => {
      const result = await runEditorTool(editor, event.toolName, event.input);
      const good = { hookToken: event.hookToken, toolCallId: event.toolCallId, result };
      const claims = decodeClaims(event.hookToken);
      const key = serverHookTokenKey();
      const now = Math.floor(Date.now() / 1000);
      const [header, payload] = event.hookToken.split(".");

      seen.noSession = (await new CoauthorClient(client.baseURL).callback(good)).status;
      seen.malformedJson = (await client.callback("{oops")).status;
      seen.missingField = (await client.callback({ hookToken: event.hookToken, result })).status;
      seen.oversized = (
        await client.callback({ ...good, result: { ok: true, blockIds: ["x".repeat(1_100_000)] } })
      ).status;
      seen.forgedSignature = (
        await client.callback({ ...good, hookToken: `${header}.${payload}.AAAA` })
      ).status;
      seen.otherKey = (
        await client.callback({
          ...good,
          hookToken: await mint(claims, new TextEncoder().encode("z".repeat(48)), now + 60),
        })
      ).status;
      seen.algNone = (
        await client.callback({
          ...good,
          hookToken: `${Buffer.from('{"alg":"none"}').toString("base64url")}.${payload}.`,
        })
      ).status;
      seen.expired = (
        await client.callback({ ...good, hookToken: await mint(claims, key, now - 10) })
      ).status;
      seen.otherUser = (await stranger.callback(good)).status;
      seen.otherToolCall = (await client.callback({ ...good, toolCallId: "s0.offline_call_99" })).status;
      seen.otherDocument = (
        await client.callback({
          ...good,
          hookToken: await mint({ ...claims, documentId: otherDocument }, key, now + 60),
        })
      ).status;
      seen.wrongResultShape = (
        await client.callback({ ...good, result: { ok: true, blockIds: "nope" } })
      ).status;
      return result;
    },
  });

  expect(seen).toEqual({
    noSession: 401,
    malformedJson: 400,
    missingField: 400,
    oversized: 413,
    forgedSignature: 401,
    otherKey: 401,
    algNone: 401,
    expired: 401,
    otherUser: 403,
    otherToolCall: 403,
    otherDocument: 403,
    wrongResultShape: 400,
  });
  // None of them resumed the run: exactly one result was accepted, the real one.
  expect(run.callbacks.map((c) => c.status)).toEqual([204]);
  expect(run.events.filter((e) => e.type === "tool-result")).toHaveLength(1);
  expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done" });
});
