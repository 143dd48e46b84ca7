import { expect, test } from "../lib/test.ts";
import { ask, createDocument, paragraphs, typeParagraphs, waitForRunEnd } from "./helpers.ts";

test("the conversation comes back after a reload, and History opens each run with its event log", async ({
  page,
}) => {
  await createDocument(page);
  await typeParagraphs(page, ["Start."]);
  await ask(page, "agent", 'append "Remembered line"');
  await waitForRunEnd(page);
  const documentId = page.url().split("/").at(-1) ?? "";
  const stored = `/api/trpc/assistant.conversation?input=${encodeURIComponent(JSON.stringify({ documentId }))}`;
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(stored)).json()) as { result: { data: unknown[] } }).result.data
          .length,
    )
    .toBe(2);

  await page.reload();
  const messages = page.getByTestId("assistant-messages");
  await expect(messages.locator(".message-user")).toHaveText(['append "Remembered line"']);
  await expect(messages.locator(".message-assistant")).toContainText(["Done: the paragraph is at the end."]);

  await page.getByTestId("assistant-history-toggle").click();
  const run = page.getByTestId("run-history-item");
  await expect(run).toHaveCount(1);
  await expect(run).toContainText('append "Remembered line"');
  await expect(run).toContainText("1 tool call ·");
  await run.getByRole("button", { expanded: false }).click();
  const types = page.getByTestId("run-log-line");
  await expect(types.first()).toHaveAttribute("data-type", "run-start");
  await expect(types.last()).toHaveAttribute("data-type", "finish");
  await expect(page.getByTestId("run-log")).toContainText("insertBlocks");

  // A new prompt sends the stored conversation as its history.
  await page.getByTestId("assistant-history-toggle").click();
  const sent = page.waitForRequest((request) => request.url().endsWith("/api/llm/stream"));
  await ask(page, "chat", "How long is it?");
  expect((await sent).postDataJSON()).toMatchObject({
    prompt: "How long is it?",
    messages: [
      { role: "user", content: 'append "Remembered line"' },
      { role: "assistant", content: expect.stringContaining("Done: the paragraph is at the end.") },
    ],
  });
});

test("History open during a run shows how it ended, stopped or done, without being reopened", async ({
  page,
}) => {
  await createDocument(page);
  const history = page.getByTestId("assistant-history-toggle");
  const runs = page.getByTestId("run-history-item");

  await ask(page, "agent", "count to 30");
  await expect(paragraphs(page).filter({ hasText: /^2$/ })).toHaveCount(1);
  await history.click();
  await expect(runs).toHaveCount(1);
  await expect(runs.first()).toHaveAttribute("data-status", "running");
  await page.getByTestId("assistant-stop").click();
  await expect(runs.first()).toHaveAttribute("data-status", "cancelled");

  // Sending a prompt shows the conversation; History opened again while the run goes on.
  await ask(page, "agent", "count to 12");
  await expect(paragraphs(page).filter({ hasText: /^2$/ })).toHaveCount(2);
  await history.click();
  await expect(runs).toHaveCount(2);
  await expect(runs.first()).toContainText("count to 12");
  await waitForRunEnd(page);
  await expect(runs.first()).toHaveAttribute("data-status", "done");
  await expect(runs.nth(1)).toHaveAttribute("data-status", "cancelled");
});
