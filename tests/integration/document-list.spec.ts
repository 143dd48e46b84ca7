import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import { DOCUMENT_PAGE_SIZE, isTerminalEvent } from "@coauthor/types";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { HeldRunLease } from "../lib/run-lease.ts";
import { postResult, RunStream } from "../lib/run-stream.ts";
import { expect, test } from "../lib/test.ts";

interface Page {
  items: { id: string; title: string; snippet: string; role: string; lastEditedBy: string | null }[];
  nextCursor: number | null;
}

test("the home list comes a page at a time, in order, without repeats", async ({ account }) => {
  const count = DOCUMENT_PAGE_SIZE + 5;
  for (let index = 0; index < count; index++)
    await account.createDocument(`Body ${index}.`, `Doc ${String(index).padStart(3, "0")}`);
  const first = await account.trpc<Page>("documents.list", { sort: "title" }, "query");
  expect(first.items).toHaveLength(DOCUMENT_PAGE_SIZE);
  expect(first.nextCursor).toBe(DOCUMENT_PAGE_SIZE);
  const second = await account.trpc<Page>(
    "documents.list",
    { sort: "title", cursor: first.nextCursor },
    "query",
  );
  expect(second.nextCursor).toBeNull();
  const titles = [...first.items, ...second.items].map((item) => item.title);
  expect(titles).toEqual(
    Array.from({ length: count }, (_, index) => `Doc ${String(index).padStart(3, "0")}`),
  );
  expect(first.items[0]).toMatchObject({ snippet: "Body 0.", role: "owner", lastEditedBy: "Test writer" });
});

test("search matches titles and text case-insensitively, wildcards literally, and only the caller's documents", async ({
  account,
  baseURL,
}) => {
  const { CoauthorClient } = await import("../lib/coauthor-client.ts");
  const stranger = await new CoauthorClient(baseURL ?? "").signIn();
  await stranger.createDocument("A secret orchid plan.", "Stranger's");
  await account.createDocument("Intro.\n\nThe ORCHID chapter, with 50% more_words.", "Garden");
  await account.createDocument("Nothing here.", "Orchids in the title");
  const search = (query: string) =>
    account
      .trpc<Page>("documents.list", { query }, "query")
      .then((page) => page.items.map((item) => item.title));
  expect((await search("orchid")).sort()).toEqual(["Garden", "Orchids in the title"]);
  expect(await search("50%")).toEqual(["Garden"]);
  expect(await search("e_w")).toEqual(["Garden"]);
  expect(await search("%")).toEqual(["Garden"]);
  expect(await search("_")).toEqual(["Garden"]);
  expect(await search("\\")).toEqual([]);
  // The snippet starts near the match, not at the top of a long text.
  const [garden] = (await account.trpc<Page>("documents.list", { query: "chapter" }, "query")).items;
  expect(garden?.snippet).toBe("Intro. The ORCHID chapter, with 50% more_words.");
});

test("bad list input is a 400 and lists nothing", async ({ account }) => {
  await account.createDocument("Text.", "Mine");
  for (const input of [
    { query: "a".repeat(201) },
    { query: "line\nbreak" },
    { query: "nul\u0000" },
    { query: "bell\u0007" },
    { query: "c1\u0085" },
    { sort: "newest" },
    { cursor: -1 },
    { cursor: 1.5 },
    { cursor: "0" },
    { extra: true },
  ]) {
    const answer = await account.trpcCall<Page>("documents.list", input, "query");
    expect({ input, status: answer.status, data: answer.data }).toEqual({
      input,
      status: 400,
      data: undefined,
    });
  }
  expect((await account.trpc<Page>("documents.list", { query: "a".repeat(200) }, "query")).items).toEqual([]);
});

test("a document's row says while the writer's agent run goes on, for that writer only", async ({
  account,
  baseURL,
}) => {
  const documentId = await account.createDocument("Plan.", "Running plan");
  const colleague = await new CoauthorClient(baseURL ?? "").signIn();
  await account.trpc("documents.share", { id: documentId, email: colleague.email, role: "editor" });
  const runningOn = async (client: CoauthorClient) =>
    (
      await client.trpc<{ items: { id: string; runningRuns: number }[] }>("documents.list", {}, "query")
    ).items.find((item) => item.id === documentId)?.runningRuns;
  expect(await runningOn(account)).toBe(0);

  // The run waits on its first tool call, which this client holds (as a tab would) and answers later.
  const stream = await RunStream.start(account, documentId, 'append "Later"');
  const lease = HeldRunLease.hold(account, stream.runId);
  try {
    const call = (await stream.readUntil((event) => event.type === "tool-call")).at(-1);
    if (call?.type !== "tool-call") throw new Error("the run asked for no tool");
    expect(await runningOn(account)).toBe(1);
    expect(await runningOn(colleague)).toBe(0);
    await postResult(account, call, await runEditorTool(createDocumentEditor(), call.toolName, call.input));
    expect((await stream.readUntil(isTerminalEvent)).at(-1)).toMatchObject({
      type: "finish",
      status: "done",
    });
  } finally {
    await lease.release();
  }
  await expect.poll(() => runningOn(account)).toBe(0);
});
