import { CoauthorClient } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";

// `next` after signing in: only a path on this site, whatever a crafted link puts in it.

const HOSTILE = [
  "/\t/evil.example",
  "/\\evil.example",
  "/\t\\evil.example",
  "//evil.example",
  "///evil.example",
  "https://evil.example/",
  "/\r\nSet-Cookie: x=1",
  "/\n/evil.example",
];

test("a signed-in user is never sent off-site, and a CR/LF in next is not an error", async ({ baseURL }) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  for (const next of HOSTILE) {
    const response = await client.fetch(`/sign-in?next=${encodeURIComponent(next)}`, { redirect: "manual" });
    expect(response.status, JSON.stringify(next)).toBeLessThan(400);
    const location = response.headers.get("location");
    expect(location, JSON.stringify(next)).not.toBeNull();
    const target = new URL(location ?? "", baseURL);
    expect(target.origin, JSON.stringify(next)).toBe(new URL(baseURL ?? "").origin);
    expect(target.pathname).toBe("/");
  }
  // A real path on the site is kept.
  const kept = await client.fetch(`/sign-in?next=${encodeURIComponent("/documents/abc?x=1")}`, {
    redirect: "manual",
  });
  expect(new URL(kept.headers.get("location") ?? "", baseURL).pathname).toBe("/documents/abc");
});

test("pages and API answers carry the security headers", async ({ baseURL }) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  for (const path of ["/sign-in", "/", "/api/health"]) {
    const response = await client.fetch(path, { redirect: "manual" });
    expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
    expect(response.headers.get("x-frame-options"), path).toBe("DENY");
    expect(response.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
    expect(response.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("permissions-policy"), path).toContain("camera=()");
  }
});

test("a cross-site request carrying the session cookie starts no run and changes nothing", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument("Mine.");
  const body = JSON.stringify({ documentId, prompt: 'append "CSRF"', mode: "agent" });
  // A "simple" request a foreign page can send without a preflight: text/plain.
  const simple = await client.fetch("/api/llm/agent", {
    method: "POST",
    headers: { "content-type": "text/plain", origin: "https://evil.example" },
    body,
  });
  expect(simple.status).toBe(415);
  // JSON, but from a foreign page.
  const foreign = await client.fetch("/api/llm/agent", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "https://evil.example" },
    body,
  });
  expect(foreign.status).toBe(403);
  const mutation = await client.fetch("/api/trpc/documents.delete", {
    method: "POST",
    headers: { "content-type": "text/plain", origin: "https://evil.example" },
    body: JSON.stringify({ id: documentId }),
  });
  expect(mutation.status).toBe(415);
  expect(await client.documentMarkdown(documentId)).toBe("Mine.");
  const runs = await client.trpc<unknown[]>("assistant.runs", { documentId }, "query");
  expect(runs).toEqual([]);
});

test("the redirect to sign-in carries a return path only up to a length a Location header can hold", async ({
  baseURL,
}) => {
  const signedOut = new CoauthorClient(baseURL ?? "");
  // The return path is copied into Location: a 10,000-character query made a header Node's
  // fetch refuses to read (and a proxy's buffer would not hold).
  const long = await signedOut.fetch(`/documents/abc?q=${"x".repeat(10_000)}`, { redirect: "manual" });
  expect(long.status).toBe(307);
  const location = new URL(long.headers.get("location") ?? "", baseURL);
  expect(location.pathname).toBe("/sign-in");
  expect(location.searchParams.get("next")).toBeNull();
  // A usual one is carried.
  const usual = await signedOut.fetch("/documents/abc?q=1", { redirect: "manual" });
  expect(new URL(usual.headers.get("location") ?? "", baseURL).searchParams.get("next")).toBe(
    "/documents/abc?q=1",
  );
});
