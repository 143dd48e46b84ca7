import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A document made from CriticMarkup (documents.create, format "criticmarkup") holds its changes as
// the importer's pending suggestions, and documents.export gives it back in each view; over HTTP
// as the browser sees it, on a real embedded database (PGlite in a throwaway folder).
const dataDir = mkdtempSync(join(tmpdir(), "coauthor-criticmarkup-"));
process.env.COAUTHOR_DATA_DIR = dataDir;
const { getDb } = await import("@/server/db");
const schema = await import("@/server/db/schema");
const { createTRPCRouter } = await import("../init");
const { documentsRouter } = await import("./documents");

const router = createTRPCRouter({ documents: createTRPCRouter(documentsRouter) });

type Answer = { status: number; reason?: string; data?: unknown };

/** Calls `path` as user "writer": a mutation with `input` as its body, or a query with it in the URL. */
async function call(path: string, input: unknown, kind: "mutation" | "query" = "mutation"): Promise<Answer> {
  const url = new URL(`http://localhost/api/trpc/${path}`);
  if (kind === "query") url.searchParams.set("input", JSON.stringify(input));
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: new Request(url, {
      method: kind === "query" ? "GET" : "POST",
      ...(kind === "mutation"
        ? { headers: { "content-type": "application/json" }, body: JSON.stringify(input) }
        : {}),
    }),
    router,
    createContext: () => ({ userId: "writer" }),
  });
  const body = (await response.json()) as {
    error?: { data?: { reason?: string } };
    result?: { data: unknown };
  };
  return { status: response.status, reason: body.error?.data?.reason, data: body.result?.data };
}

const CRITIC = "# Plan\n\nThe {~~quick~>slow~~}{>>Calmer.<<} fox.\n\n{++A new line.++}";

beforeAll(async () => {
  const db = await getDb();
  await db.insert(schema.users).values({ id: "writer", name: "Writer", email: "writer@example.test" });
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("CriticMarkup through documents.create and documents.export", () => {
  it("imports the changes as pending suggestions and exports the document in every view", async () => {
    const created = await call("documents.create", {
      title: "Reviewed",
      markdown: CRITIC,
      format: "criticmarkup",
    });
    expect(created.status).toBe(200);
    const { id } = created.data as { id: string };
    const exported = async (view?: string) =>
      (await call("documents.export", { id, ...(view ? { view } : {}) }, "query")).data;
    expect(await exported("criticmarkup")).toEqual({ id, markdown: CRITIC, hasSuggestions: true });
    expect(await exported("accepted")).toMatchObject({ markdown: "# Plan\n\nThe slow fox.\n\nA new line." });
    expect(await exported("rejected")).toMatchObject({ markdown: "# Plan\n\nThe quick fox." });
    expect(await exported()).toMatchObject({
      markdown: "# Plan\n\nThe quick fox.\n\nThe slow fox.\n\nA new line.",
    });
  });

  it("reads the same text as plain Markdown without the format", async () => {
    const created = await call("documents.create", { markdown: "A {++b++} c." });
    const { id } = created.data as { id: string };
    expect((await call("documents.export", { id }, "query")).data).toMatchObject({
      markdown: "A {++b++} c.",
      hasSuggestions: false,
    });
  });

  it("refuses markup it cannot read with a 400, reason invalid-criticmarkup, storing nothing", async () => {
    const db = await getDb();
    const owned = () => db.select().from(schema.documents).where(eq(schema.documents.ownerId, "writer"));
    const before = (await owned()).length;
    const answer = await call("documents.create", { markdown: "A {++never closed", format: "criticmarkup" });
    expect(answer).toMatchObject({ status: 400, reason: "invalid-criticmarkup" });
    expect((await owned()).length).toBe(before);
  });

  it("refuses an unknown view or format with a 400", async () => {
    expect((await call("documents.export", { id: "x", view: "all" }, "query")).status).toBe(400);
    expect((await call("documents.create", { markdown: "A", format: "html" })).status).toBe(400);
  });
});
