import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// documents.create and recipes.save refuse content past its limits with a 400 whose
// `data.reason` says which rule, over HTTP as the browser sees it, and store nothing. On a real
// embedded database (PGlite in a throwaway folder, migrated like the app's).
const dataDir = mkdtempSync(join(tmpdir(), "coauthor-content-refusals-"));
process.env.COAUTHOR_DATA_DIR = dataDir;
const { getDb } = await import("@/server/db");
const schema = await import("@/server/db/schema");
const { createTRPCRouter } = await import("../init");
const { documentsRouter } = await import("./documents");
const { recipesRouter } = await import("./recipes");

const router = createTRPCRouter({
  documents: createTRPCRouter(documentsRouter),
  recipes: createTRPCRouter(recipesRouter),
});

type Answer = { status: number; message?: string; reason?: string; data?: unknown };

/** Calls mutation `path` as user "writer" over tRPC's fetch adapter. */
async function call(path: string, input: unknown): Promise<Answer> {
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: new Request(`http://localhost/api/trpc/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(input),
    }),
    router,
    createContext: () => ({ userId: "writer" }),
  });
  const body = (await response.json()) as {
    error?: { message: string; data?: { reason?: string } };
    result?: { data: unknown };
  };
  return {
    status: response.status,
    message: body.error?.message,
    reason: body.error?.data?.reason,
    data: body.result?.data,
  };
}

const ownedDocuments = async () => {
  const db = await getDb();
  return db
    .select({ id: schema.documents.id })
    .from(schema.documents)
    .where(eq(schema.documents.ownerId, "writer"));
};

beforeAll(async () => {
  const db = await getDb();
  await db.insert(schema.users).values({ id: "writer", name: "Writer", email: "writer@example.test" });
  await db.insert(schema.documents).values({ id: "doc", ownerId: "writer", title: "T" });
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("documents.create with Markdown past the content rule", () => {
  it.each([
    ["2,000 nested quotes", `${"> ".repeat(2_000)}x`, "more than 64 nested quotes or list items at line 1"],
    [
      "5,000 nested list items",
      `${"- ".repeat(5_000)}x`,
      "more than 64 nested quotes or list items at line 1",
    ],
    [
      "5,000 nested emphasis pairs",
      `${"*a ".repeat(5_000)}x${" b*".repeat(5_000)}`,
      "more than 256 emphasis or link markers (*, _, ~, [, ]) in one paragraph at line 1",
    ],
    [
      "a table of 50,000 columns",
      `|${"a|".repeat(50_000)}\n|${"-|".repeat(50_000)}`,
      "a table row of more than 64 cells at line 1",
    ],
  ])("answers %s with a 400, reason invalid-content, and stores nothing", async (_name, markdown, what) => {
    const before = await ownedDocuments();
    const answer = await call("documents.create", { title: "Hostile", markdown });
    expect(answer).toEqual({
      status: 400,
      message: `markdown: ${what}`,
      reason: "invalid-content",
      data: undefined,
    });
    expect(await ownedDocuments()).toEqual(before);
  });

  it("still creates a document from Markdown within the rule", async () => {
    const answer = await call("documents.create", {
      title: "Fine",
      markdown: `${"> ".repeat(64)}deep but allowed`,
    });
    expect(answer.status).toBe(200);
    expect(answer.reason).toBeUndefined();
  });
});

describe("recipes.save with a definition past its limits", () => {
  const savedRecipes = async () => (await getDb()).select({ id: schema.recipes.id }).from(schema.recipes);

  it.each([
    [
      "30,000 nested sequences",
      `${"[".repeat(30_000)}${"]".repeat(30_000)}`,
      "nested deeper than 64 levels (line 1, column 63)",
    ],
    [
      "an alias",
      "a: &a [x]\nb: *a",
      "aliases (*name) are not allowed in a definition: write the value out (line 2, column 4)",
    ],
  ])(
    "answers %s with a 400, reason definition-too-complex, and saves nothing",
    async (_name, definition, what) => {
      const answer = await call("recipes.save", { documentId: "doc", definition });
      expect(answer).toEqual({
        status: 400,
        message: `definition: ${what}`,
        reason: "definition-too-complex",
        data: undefined,
      });
      expect(await savedRecipes()).toEqual([]);
    },
  );
});
