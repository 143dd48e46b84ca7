import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { AppServer } from "../lib/app-server.ts";
import { bearer, makeToken, runCli } from "../lib/coauthor-cli.ts";
import { CoauthorClient, sharedDocument } from "../lib/coauthor-client.ts";
import { tryUpgrade } from "../lib/sync-client.ts";
import { expect, test } from "../lib/test.ts";

// Personal access tokens and the `coauthor` CLI (issue #39, point 3): a token starts and follows
// the agent's runs as its writer, with the writer's rights, and opens nothing else.

const runIdIn = (stdout: string) => /^· run (\S+) on document/m.exec(stdout)?.[1] ?? "";

test("a run from a personal token prints its events as they come and exits 0; the document changed", async ({
  account,
  baseURL,
}) => {
  const url = baseURL ?? "";
  const documentId = await account.createDocument("First paragraph.");
  const { token, summary } = await makeToken(account, "Nightly script");
  expect(summary.prefix).toBe(token.slice(0, 12));

  const result = await runCli(url, token, ["run", "--document", documentId, 'append "Written by a script"']);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(/^→ \S+ /m);
  expect(result.stdout).toMatch(/^✓ /m);
  expect(result.stdout).toMatch(/^· finished: done/m);
  // The run was the server's from its first call: no tab ran it, and the edit is in the document.
  expect(await account.documentMarkdown(documentId)).toContain("Written by a script");

  // The read-only run routes answer the token too: the run's status and its stored events.
  const runId = runIdIn(result.stdout);
  await expect
    .poll(async () => (await fetch(`${url}/api/llm/agent/${runId}`, { headers: bearer(token) })).json())
    .toMatchObject({ runId, documentId, status: "done" });
  const events = await fetch(`${url}/api/runs/${runId}/events`, { headers: bearer(token) });
  expect(events.status).toBe(200);
  expect(await events.text()).toContain('"type":"finish"');
  const listed = await account.trpc<{ id: string; lastUsedAt: string | null }[]>(
    "accessTokens.list",
    undefined,
    "query",
  );
  expect(listed.find((item) => item.id === summary.id)?.lastUsedAt).not.toBeNull();
});

test("Ctrl+C stops the CLI's run on the server: it prints the run's end, cancelled, and exits 1", async ({
  account,
  baseURL,
}) => {
  const url = baseURL ?? "";
  const documentId = await account.createDocument("Counting below.");
  const { token } = await makeToken(account);
  const result = await runCli(url, token, ["run", "--document", documentId, "count to 30"], {
    // Interrupted once the run has done something: its first tool call has run.
    interruptWhen: (stdout) => /^✓ /m.test(stdout),
  });
  expect(result.stdout).toMatch(/^· stopping the run…$/m);
  expect(result.stdout).toMatch(/^· finished: cancelled/m);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/did not finish: cancelled/);
  const runId = runIdIn(result.stdout);
  const status = await fetch(`${url}/api/llm/agent/${runId}`, { headers: bearer(token) });
  expect(await status.json()).toMatchObject({ status: "cancelled" });
  // It stopped well before its 30 calls.
  const counted = (await account.documentMarkdown(documentId))
    .split("\n\n")
    .filter((block) => /^\d+$/.test(block));
  expect(counted.length).toBeLessThan(30);
});

test("--recipe takes a recipe's name as well as its id", async ({ account, baseURL }) => {
  const url = baseURL ?? "";
  const documentId = await account.createDocument("A short sentence.");
  const { token } = await makeToken(account);
  const byName = await runCli(url, token, [
    "run",
    "--document",
    documentId,
    "--recipe",
    "review AND revise",
    'append "Draft."',
  ]);
  expect(byName.stderr).toBe("");
  expect(byName.code).toBe(0);
  expect(byName.stdout).toMatch(/^· recipe: Review and revise/m);
  const unknown = await runCli(url, token, [
    "run",
    "--document",
    documentId,
    "--recipe",
    "No such recipe",
    "Go.",
  ]);
  expect(unknown.code).toBe(3);
  expect(unknown.stderr).toContain("HTTP 404");
});

test("a revoked token is refused (401) from the moment it is revoked", async ({ account, baseURL }) => {
  const url = baseURL ?? "";
  const documentId = await account.createDocument("Kept as is.");
  const { token, summary } = await makeToken(account);
  const status = await fetch(`${url}/api/llm/agent/no-such-run`, { headers: bearer(token) });
  expect(status.status).toBe(404);
  await account.trpc("accessTokens.revoke", { id: summary.id });

  const result = await runCli(url, token, ["run", "--document", documentId, 'append "Never"']);
  expect(result.code).toBe(3);
  expect(result.stderr).toContain("HTTP 401 unauthorized:agent");
  expect((await fetch(`${url}/api/llm/agent/no-such-run`, { headers: bearer(token) })).status).toBe(401);
  expect(await account.documentMarkdown(documentId)).not.toContain("Never");
});

test("a token of a viewer or a commenter cannot start a run (403)", async ({ baseURL }) => {
  const url = baseURL ?? "";
  for (const role of ["viewer", "commenter"] as const) {
    const { owner, member, documentId } = await sharedDocument(url, role, "Theirs to read.");
    const { token } = await makeToken(member);
    const result = await runCli(url, token, ["run", "--document", documentId, 'append "Not allowed"']);
    expect(result.code, role).toBe(3);
    expect(result.stderr).toContain("HTTP 403 forbidden:document");
    expect(await owner.documentMarkdown(documentId)).not.toContain("Not allowed");
  }
});

test("a token never reaches another user's document or runs", async ({ account, baseURL }) => {
  const url = baseURL ?? "";
  const documentId = await account.createDocument("Private text.");
  const own = await makeToken(account);
  const run = await runCli(url, own.token, ["run", "--document", documentId, 'append "Mine"']);
  expect(run.code).toBe(0);
  const runId = runIdIn(run.stdout);

  const stranger = await new CoauthorClient(url).signIn();
  const { token } = await makeToken(stranger);
  const result = await runCli(url, token, ["run", "--document", documentId, 'append "Intruder"']);
  expect(result.code).toBe(3);
  expect(result.stderr).toContain("HTTP 403");
  for (const path of [
    `/api/llm/agent/${runId}`,
    `/api/llm/agent/${runId}/stream`,
    `/api/runs/${runId}/events`,
  ]) {
    const response = await fetch(`${url}${path}`, { headers: bearer(token) });
    expect(response.status, path).toBe(403);
    await response.arrayBuffer();
  }
  const stop = await fetch(`${url}/api/llm/agent/${runId}`, { method: "DELETE", headers: bearer(token) });
  expect(stop.status).toBe(403);
  await stop.arrayBuffer();
  expect(await account.documentMarkdown(documentId)).not.toContain("Intruder");
});

test("a token opens nothing but the run routes (start, follow, Stop): not the sync socket, tRPC or chat", async ({
  account,
  baseURL,
}) => {
  const url = baseURL ?? "";
  const documentId = await account.createDocument("Text.");
  const { token } = await makeToken(account);
  expect(await tryUpgrade({ baseURL: url, cookie: "", headers: bearer(token) })).toBe(401);
  // Beside a session, the socket still goes by the session alone (the token adds nothing).
  expect(await tryUpgrade({ baseURL: url, cookie: account.cookie, headers: bearer(token) })).toBe("open");

  const json = { ...bearer(token), "content-type": "application/json" };
  const list = await fetch(`${url}/api/trpc/documents.list?input=${encodeURIComponent("{}")}`, {
    headers: bearer(token),
  });
  expect(list.status).toBe(401);
  const mint = await fetch(`${url}/api/trpc/accessTokens.create`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ name: "Minted by a token", expiresInDays: 90 }),
  });
  expect(mint.status).toBe(401);
  const chat = await fetch(`${url}/api/llm/stream`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ documentId, prompt: "What is this?" }),
  });
  expect(chat.status).toBe(401);
  const active = await fetch(`${url}/api/llm/agent/active?documentId=${documentId}`, {
    headers: bearer(token),
  });
  expect(active.status).toBe(401);
  for (const response of [list, mint, chat, active]) await response.arrayBuffer();
});

test("an expired token is refused (401)", async () => {
  // Two server starts: its own server, stopped to move the expiry, then started again.
  test.setTimeout(240_000);
  const server = new AppServer();
  try {
    await server.start();
    const writer = await new CoauthorClient(server.url).signIn();
    const documentId = await writer.createDocument("Text.");
    const { token, summary } = await makeToken(writer, "Short-lived", 7);
    // Its expiry moved into the past in the database itself (the server stopped): no clock is faked.
    await server.kill();
    const db = await PGlite.create(join(server.dataDir, "pglite"));
    await db.query("update access_tokens set expires_at = now() - interval '1 minute' where id = $1", [
      summary.id,
    ]);
    await db.close();
    await server.start();

    const result = await runCli(server.url, token, ["run", "--document", documentId, 'append "Too late"']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("HTTP 401");
    // The account page still lists it, so the writer sees why it stopped working.
    const listed = await writer.trpc<{ id: string; expiresAt: string }[]>(
      "accessTokens.list",
      undefined,
      "query",
    );
    expect(Date.parse(listed.find((item) => item.id === summary.id)?.expiresAt ?? "")).toBeLessThan(
      Date.now(),
    );
  } finally {
    await server.dispose();
  }
});
