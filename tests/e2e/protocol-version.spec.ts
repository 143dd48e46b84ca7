import { PROTOCOL_OUTDATED_MESSAGE, PROTOCOL_VERSION, PROTOCOL_VERSION_HEADER } from "@coauthor/types";
import { expect, test } from "../lib/test.ts";
import { ask, createDocument, paragraphs } from "./helpers.ts";

// A tab left open across a deploy: its code speaks an older protocol than the server. Played here
// by rewriting the version the page sends; the server refuses it and the panel says to reload,
// and no tool runs in the page.
test("a page on older code is refused cleanly: the panel says Coauthor was updated, and no tool runs", async ({
  page,
}) => {
  await createDocument(page);
  const sent: (string | null)[] = [];
  await page.route("**/api/llm/agent", (route) => {
    const headers = route.request().headers();
    sent.push(headers[PROTOCOL_VERSION_HEADER] ?? null);
    return route.continue({ headers: { ...headers, [PROTOCOL_VERSION_HEADER]: "0.9" } });
  });
  const refused = page.waitForResponse(
    (r) => r.url().endsWith("/api/llm/agent") && r.request().method() === "POST",
  );
  await ask(page, "agent", "count to 3");
  expect((await refused).status()).toBe(409);
  await expect(page.getByTestId("assistant-status")).toHaveText(`Failed: ${PROTOCOL_OUTDATED_MESSAGE}`);
  // The page sent its own version, and ran nothing.
  expect(sent).toEqual([PROTOCOL_VERSION]);
  await expect(page.getByTestId("assistant-tool-call")).toHaveCount(0);
  expect((await paragraphs(page).allTextContents()).filter((text) => text !== "")).toEqual([]);
});
