import { CoauthorClient, sharedDocument } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";

// Recipes over the API: a definition with mistakes is answered with each at its line and stored
// nowhere; a saved recipe is its author's (or shared on one document); an unknown recipe starts no run.

const VALID = `version: 1
name: Checker
agents:
  - id: checker
    instructions: Check the document.
steps:
  - agent: checker
`;

test("saving checks the definition, sharing makes it visible to the document's members only", async ({
  baseURL,
}) => {
  const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "editor");
  const list = (who: CoauthorClient, id = documentId) =>
    who.trpc<{ id: string; name: string; builtIn: boolean; editable: boolean }[]>(
      "recipes.list",
      { documentId: id },
      "query",
    );
  const builtIns = (await list(owner)).filter((recipe) => recipe.builtIn).map((recipe) => recipe.name);
  expect(builtIns).toEqual([
    "Review and revise",
    "Translate with a check",
    "Parallel review",
    "Review with comments",
  ]);

  const broken = await owner.trpc<{
    ok: boolean;
    issues: { line: number; column: number; message: string }[];
  }>("recipes.save", { documentId, definition: VALID.replace("agent: checker", "agent: nobody") });
  expect(broken.ok).toBe(false);
  expect(broken.issues).toEqual([
    {
      line: 7,
      column: 12,
      path: "steps[0].agent",
      message: 'no agent has the id "nobody" (agents: checker)',
    },
  ]);
  expect(await list(owner)).toHaveLength(builtIns.length);

  const personal = await owner.trpc<{ ok: true; recipe: { id: string } }>("recipes.save", {
    documentId,
    definition: VALID,
  });
  expect((await list(owner)).map((recipe) => recipe.name)).toContain("Checker");
  expect((await list(member)).map((recipe) => recipe.name)).not.toContain("Checker");
  // Shared on the document: its members see it, and only its author may change it.
  await owner.trpc("recipes.save", { documentId, id: personal.recipe.id, definition: VALID, shared: true });
  const seen = (await list(member)).find((recipe) => recipe.name === "Checker");
  expect(seen).toMatchObject({ editable: false });
  const taken = await member.trpcCall("recipes.save", {
    documentId,
    id: personal.recipe.id,
    definition: VALID,
  });
  expect(taken.status).toBe(404);
  const elsewhere = await owner.createDocument();
  expect((await list(owner, elsewhere)).map((recipe) => recipe.name)).not.toContain("Checker");
});

test("a run names a recipe it may use, or starts nothing", async ({ baseURL }) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument("Text.");
  const response = await client.fetch("/api/llm/agent", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ documentId, prompt: "go", recipeId: "rcp_someone-elses" }),
  });
  expect(response.status).toBe(404);
  expect(await response.json()).toMatchObject({ code: "not_found:recipe" });
  expect(await client.trpc<unknown[]>("assistant.runs", { documentId }, "query")).toHaveLength(0);
});
