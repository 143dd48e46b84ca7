import { createDocumentEditor, exportMarkdown } from "@coauthor/tools";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { TOUR_DOCUMENT as DOCUMENT, TOUR_TOOLS } from "../lib/fixtures.ts";
import { expect, test } from "../lib/test.ts";

test("an agent run with six different tools edits a document with a heading, a list and a table", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument(DOCUMENT);
  const editor = createDocumentEditor({ markdown: DOCUMENT });
  const run = await client.runAgent(documentId, "tidy up", { editor });

  const tools = run.events
    .filter((e) => e.type === "tool-call")
    .map((e) => (e.type === "tool-call" ? e.toolName : ""));
  expect(tools).toEqual(TOUR_TOOLS);
  expect(
    run.events.filter((e) => e.type === "tool-result").every((e) => e.type === "tool-result" && e.ok),
  ).toBe(true);
  expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done", summary: "Tidied up: 6 edits." });
  expect(exportMarkdown(editor)).toBe(
    [
      "# **Project** notes",
      "> We fixed the bug and wrote the docs.",
      "| Task | Status |\n| - | - |\n| Ship | Done |",
      "Closing words.",
      "- first item\n- second item",
      "| Next step | Owner |\n| - | - |\n| Review | Writer |",
    ].join("\n\n"),
  );
});
