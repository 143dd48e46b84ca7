import { PROTOCOL_VERSION, PROTOCOL_VERSION_HEADER, type RunEvent } from "@coauthor/types";
import { createRunEventParser } from "@coauthor/types/sse";
import { expect, type Page, test } from "../lib/test.ts";
import { ask, createDocument, paragraphs, waitForRunEnd, waitForSave } from "./helpers.ts";

// Policy: a reload (or a closed tab) does not cancel an agent run. The reloaded page finds the
// run, replays it once into the panel and carries on, never running a tool call twice.

const texts = async (page: Page) =>
  (await paragraphs(page).allTextContents()).map((t) => t.trim()).filter((t) => t !== "");

function parseEvents(body: string): RunEvent[] {
  const events: RunEvent[] = [];
  const parser = createRunEventParser({
    onEvent: (event) => events.push(event),
    onInvalid: (error) => {
      throw new Error(`invalid frame: ${error.message}`);
    },
  });
  parser.feed(body);
  return events.filter((event) => event.type !== "heartbeat");
}

test("a page reloaded mid-run reattaches and finishes the run there, each tool call run once", async ({
  page,
}) => {
  await createDocument(page);
  const started = page.waitForResponse(
    (r) => r.url().endsWith("/api/llm/agent") && r.request().method() === "POST",
  );
  // The first result goes through; the second tool call is run in this page but its result never
  // reaches the server before the reload (the worst moment to leave).
  let callbacks = 0;
  await page.route("**/api/llm/agent/callback", (route) => {
    callbacks++;
    return callbacks === 1 ? route.continue() : route.abort();
  });
  await ask(page, "agent", "count to 3");
  const runId = (await started).headers()["x-run-id"] ?? "";
  expect(runId).not.toBe("");
  await expect.poll(() => texts(page)).toEqual(["1", "2"]);
  await waitForSave(page);

  await page.unroute("**/api/llm/agent/callback");
  await page.reload();
  await expect(page.getByTestId("assistant-status")).toHaveText("Assistant is editing…");
  await waitForRunEnd(page, "Done");

  expect(await texts(page)).toEqual(["1", "2", "3"]);
  // The panel shows the run once: its prompt, and each tool call once, all ok.
  const tools = page.getByTestId("assistant-tool-call");
  await expect(tools).toHaveCount(3);
  for (const tool of await tools.all()) await expect(tool).toHaveAttribute("data-status", "ok");
  await expect(page.getByTestId("assistant-messages").getByText("count to 3", { exact: true })).toHaveCount(
    1,
  );

  // The server saw each tool call answered exactly once, in order.
  const replay = await page.request.get(`/api/llm/agent/${runId}/stream?from=0`, {
    headers: { [PROTOCOL_VERSION_HEADER]: PROTOCOL_VERSION },
  });
  const events = parseEvents(await replay.text());
  expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i));
  const calls = events.flatMap((e) => (e.type === "tool-call" ? [e.toolCallId] : []));
  const results = events.flatMap((e) => (e.type === "tool-result" && e.ok ? [e.toolCallId] : []));
  expect(calls).toHaveLength(3);
  expect(results).toEqual(calls);
  expect(events.at(-1)).toMatchObject({ type: "finish", status: "done" });

  // The run is over: another reload shows the saved document and reattaches to nothing.
  await waitForSave(page);
  await page.reload();
  await expect.poll(() => texts(page)).toEqual(["1", "2", "3"]);
  await expect(page.getByTestId("assistant-status")).toHaveText("Ready");
});
