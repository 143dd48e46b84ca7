import { z } from "zod";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";

// Content past the content rule, through the doors that take text to parse: a new document's
// Markdown (documents.create) and a recipe's YAML (recipes.save). Each was a 500 (stack overflow)
// or a server stalled for seconds to minutes; now each is a 400 naming the rule in `data.reason`,
// what is wrong and where in the message, and nothing is stored. How quickly is not asserted here
// (a shared machine's load decides that; a stall of minutes would meet the test's timeout).

const refusalSchema = z.object({
  error: z.object({
    message: z.string(),
    data: z.object({ code: z.string(), httpStatus: z.number(), reason: z.string() }),
  }),
});

/** Posts a tRPC mutation and returns its status and the refusal (when it is one). */
async function mutate(client: CoauthorClient, path: string, input: unknown) {
  const response = await client.fetch(`/api/trpc/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(input),
  });
  const body: unknown = await response.json();
  const refusal = refusalSchema.safeParse(body);
  return {
    status: response.status,
    refusal: refusal.success ? refusal.data.error : null,
  };
}

const hostileMarkdown: { name: string; markdown: string; what: RegExp }[] = [
  {
    name: "2,000 nested quotes",
    markdown: `${"> ".repeat(2_000)}x`,
    what: /more than 64 nested quotes or list items at line 1/,
  },
  {
    name: "5,000 nested list items",
    markdown: `${"- ".repeat(5_000)}x`,
    what: /more than 64 nested quotes or list items at line 1/,
  },
  {
    name: "a list nested 40 deep, one item a line",
    markdown: Array.from({ length: 40 }, (_, level) => `${"  ".repeat(level)}- item ${level}`).join("\n"),
    what: /nesting deeper than 64 levels at line 1/,
  },
  {
    name: "5,000 nested emphasis pairs",
    markdown: `${"*a ".repeat(5_000)}x${" b*".repeat(5_000)}`,
    what: /more than 256 emphasis or link markers .* in one paragraph at line 1/,
  },
  {
    name: "20,000 emphasis pairs",
    markdown: `${"*a ".repeat(20_000)}x${" b*".repeat(20_000)}`,
    what: /more than 256 emphasis or link markers .* in one paragraph at line 1/,
  },
  {
    name: "a 200 KB table of 50,000 columns",
    markdown: `|${"a|".repeat(50_000)}\n|${"-|".repeat(50_000)}`,
    what: /a table row of more than 64 cells at line 1/,
  },
  {
    name: "a table of 20,032 cells",
    markdown: [
      `|${" h |".repeat(64)}`,
      `|${"-|".repeat(64)}`,
      ...Array(312).fill(`|${" c |".repeat(64)}`),
    ].join("\n"),
    what: /a table of more than 20,000 cells at line 1/,
  },
];

test("documents.create refuses Markdown past the content rule with a 400 (invalid-content), storing nothing", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const before = await client.trpc<unknown[]>("documents.list", {}, "query");
  for (const { name, markdown, what } of hostileMarkdown) {
    const answer = await mutate(client, "documents.create", { title: name, markdown });
    expect(answer.status, name).toBe(400);
    expect(answer.refusal?.data, name).toMatchObject({ code: "BAD_REQUEST", reason: "invalid-content" });
    expect(answer.refusal?.message, name).toMatch(what);
  }
  expect(await client.trpc<unknown[]>("documents.list", {}, "query")).toEqual(before);

  // Markdown right at the rule's limits is still a document.
  const deepest = await client.createDocument(`${"> ".repeat(64)}allowed`);
  expect(await client.documentMarkdown(deepest)).toContain("allowed");
});

test("recipes.save refuses a definition nested too deep or with aliases with a 400 (definition-too-complex), saving nothing", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument("Recipes.");
  const before = await client.trpc<unknown[]>("recipes.list", { documentId }, "query");
  const laughs = [
    "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]",
    ...Array.from({ length: 9 }, (_, i) => {
      const name = String.fromCharCode(98 + i);
      return `${name}: &${name} [${Array(9)
        .fill(`*${String.fromCharCode(97 + i)}`)
        .join(", ")}]`;
    }),
  ].join("\n");
  const cases: { name: string; definition: string; what: RegExp }[] = [
    {
      name: "30,000 nested sequences (60 KB)",
      definition: `${"[".repeat(30_000)}${"]".repeat(30_000)}`,
      what: /nested deeper than 64 levels \(line 1, column 63\)/,
    },
    {
      name: "30,000 nested block sequences",
      definition: `${"- ".repeat(30_000)}x`,
      what: /nested deeper than 64 levels \(line 1, column 65\)/,
    },
    {
      name: "the billion laughs",
      definition: laughs,
      what: /aliases \(\*name\) are not allowed .*\(line 2, column 8\)/,
    },
  ];
  for (const { name, definition, what } of cases) {
    const answer = await mutate(client, "recipes.save", { documentId, definition });
    expect(answer.status, name).toBe(400);
    expect(answer.refusal?.data, name).toMatchObject({
      code: "BAD_REQUEST",
      reason: "definition-too-complex",
    });
    expect(answer.refusal?.message, name).toMatch(what);
  }
  expect(await client.trpc<unknown[]>("recipes.list", { documentId }, "query")).toEqual(before);
});
