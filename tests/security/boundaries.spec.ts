import { CoauthorClient } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";

// One rule at every JSON boundary: no NUL, no lone surrogate, bounded depth — a clear 400 that
// names the field, never a 500, and nothing stored.

const post = (client: CoauthorClient, path: string, body: string) =>
  client.fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body });

const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

test("hostile strings and depth get a 400 naming the field, on REST routes and tRPC alike", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument("Kept.");
  const listBefore = await client.trpc<unknown[]>("documents.list", {}, "query");

  const cases: { path: string; body: string; field: RegExp }[] = [
    { path: "/api/trpc/documents.create", body: JSON.stringify({ title: "a\u0000b" }), field: /body\.title/ },
    { path: "/api/trpc/documents.create", body: '{"title":"\\ud800x"}', field: /lone surrogate/ },
    {
      path: "/api/trpc/documents.rename",
      body: JSON.stringify({ id: documentId, title: "x\u0000" }),
      field: /title/,
    },
    {
      path: "/api/llm/agent",
      body: JSON.stringify({ documentId, prompt: "append \u0000", mode: "agent" }),
      field: /body\.prompt/,
    },
    {
      path: "/api/llm/stream",
      body: JSON.stringify({ documentId, prompt: "\udfff?", mode: "chat" }),
      field: /prompt/,
    },
    { path: "/api/llm/agent/callback", body: deep(5_000), field: /nested deeper/ },
    { path: "/api/trpc/documents.create", body: deep(5_000), field: /nested deeper/ },
  ];
  for (const { path, body, field } of cases) {
    const response = await post(client, path, body);
    expect(response.status, path).toBe(400);
    const answer = (await response.json()) as { message: string };
    expect(answer.message, path).toMatch(field);
  }
  const query = await client.fetch(
    `/api/trpc/documents.get?input=${encodeURIComponent(JSON.stringify({ id: "\u0000" }))}`,
  );
  expect(query.status).toBe(400);

  // Nothing was created, renamed or started.
  expect(await client.trpc<unknown[]>("documents.list", {}, "query")).toEqual(listBefore);
  expect(await client.trpc<unknown[]>("assistant.runs", { documentId }, "query")).toEqual([]);
  expect(await client.documentMarkdown(documentId)).toBe("Kept.");
});

test("hostile query and path parameters are refused, never a 500", async ({ baseURL }) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const active = await client.fetch(`/api/llm/agent/active?documentId=${encodeURIComponent("a\u0000b")}`);
  expect(active.status).toBe(400);
  expect(((await active.json()) as { message: string }).message).toMatch(/documentId.*NUL/);
  for (const [method, path] of [
    ["GET", "/api/llm/agent/%00/stream?from=0"],
    ["DELETE", "/api/llm/agent/%00"],
    ["GET", "/api/runs/%00/events"],
    ["GET", `/api/llm/agent/${"r".repeat(5_000)}/stream`],
  ] as const) {
    const response = await client.fetch(path, { method });
    expect(response.status, `${method} ${path.slice(0, 40)}`).toBe(404);
  }
});

test("a path that is not percent-encoded UTF-8 gets 400 before any route runs, never a 500", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  // %FF is no UTF-8 byte; %ED%A0%80 is a lone surrogate's bytes. Next decodes dynamic segments
  // before the route (and the proxy) runs, and answered these with 500.
  for (const segment of ["%FF", "%ED%A0%80", "a%C3"]) {
    for (const [method, path] of [
      ["GET", `/api/llm/agent/${segment}/stream`],
      ["POST", `/api/llm/agent/${segment}/lease`],
      ["DELETE", `/api/llm/agent/${segment}`],
      ["GET", `/api/runs/${segment}/events`],
      ["POST", `/api/auth/${segment}`],
      ["GET", `/api/trpc/${segment}`],
      ["GET", `/documents/${segment}`],
    ] as const) {
      for (const caller of [client, new CoauthorClient(baseURL ?? "")]) {
        const response = await caller.fetch(path, {
          method,
          headers: { "content-type": "application/json" },
          body: method === "GET" ? undefined : "{}",
          redirect: "manual",
        });
        expect(response.status, `${method} ${path}`).toBe(400);
        expect(await response.json()).toMatchObject({ code: "bad_request:path" });
      }
    }
  }
  // A well-formed encoded segment still reaches its route.
  const valid = await client.fetch("/api/llm/agent/%E2%82%AC", { method: "DELETE" });
  expect(valid.status).toBe(404);
});
