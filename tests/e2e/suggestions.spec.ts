import type { Browser } from "@playwright/test";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { expect, type Page, test } from "../lib/test.ts";
import { expectNoAxeViolations } from "./accessibility-helpers.ts";
import { ask, coEditorPage, contextFor, paragraphs, waitForRunEnd } from "./helpers.ts";

// Suggest mode: the agent's edits arrive as suggestions in the shared document; every co-editor
// sees them live; editors accept or reject them one by one or all at once; viewers only see them.

async function openAs(browser: Browser, client: CoauthorClient, baseURL: string, documentId: string) {
  const context = await contextFor(browser, client, baseURL);
  const page = await context.newPage();
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page).first()).toBeVisible();
  return { page, context };
}

function suggestions(page: Page) {
  return page.getByTestId("suggestion-item");
}

function marked(page: Page, change: "inserted" | "deleted") {
  return page.getByTestId("document-editor").locator(`[data-suggestion="${change}"]`);
}

/**
 * Opens a new document of `paragraphTexts` in `page`, switches the agent to Suggest mode and runs
 * each of `prompts` to its end: the suggestions they make are pending.
 */
async function suggestIn(page: Page, account: CoauthorClient, paragraphTexts: string[], prompts: string[]) {
  const documentId = await account.createDocument(paragraphTexts.join("\n\n"));
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(paragraphTexts);
  await page.getByTestId("assistant-mode-agent").click();
  await page.getByTestId("edit-mode-suggest").click();
  for (const prompt of prompts) {
    await ask(page, "agent", prompt);
    await waitForRunEnd(page);
  }
}

test("an agent run in Suggest mode: a co-editor sees its suggestions live, accepts one and rejects one; a viewer has no controls", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const documentId = await account.createDocument("Alpha line.\n\nBeta line.\n\nGamma line.");
  const bob = await new CoauthorClient(baseURL).signIn();
  const viewer = await new CoauthorClient(baseURL).signIn();
  await account.trpc("documents.share", { id: documentId, email: bob.email, role: "editor" });
  await account.trpc("documents.share", { id: documentId, email: viewer.email, role: "viewer" });
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(["Alpha line.", "Beta line.", "Gamma line."]);
  const bobCopy = await openAs(browser, bob, baseURL, documentId);
  const viewerCopy = await openAs(browser, viewer, baseURL, documentId);

  await page.getByTestId("assistant-mode-agent").click();
  await page.getByTestId("edit-mode-suggest").click();
  await ask(page, "agent", 'replace "line" with "row"');
  await waitForRunEnd(page);

  // Three replacements, each an old block struck through and a new one, in every copy.
  for (const copy of [page, bobCopy.page, viewerCopy.page]) {
    await expect(suggestions(copy)).toHaveCount(3);
    await expect(marked(copy, "deleted")).toHaveText(["Alpha line.", "Beta line.", "Gamma line."]);
    await expect(marked(copy, "inserted")).toHaveText(["Alpha row.", "Beta row.", "Gamma row."]);
  }
  await expect(suggestions(page).first()).toContainText("Coauthor for");
  // The viewer sees them, and nothing to decide with.
  await expect(viewerCopy.page.getByRole("button", { name: "Accept", exact: true })).toHaveCount(0);
  await expect(viewerCopy.page.getByRole("button", { name: "Reject", exact: true })).toHaveCount(0);

  // Bob accepts the first and rejects the second, by keyboard.
  await suggestions(bobCopy.page).nth(0).getByRole("button", { name: "Accept", exact: true }).focus();
  await bobCopy.page.keyboard.press("Enter");
  await expect(suggestions(bobCopy.page)).toHaveCount(2);
  await suggestions(bobCopy.page).nth(0).getByRole("button", { name: "Reject", exact: true }).focus();
  await bobCopy.page.keyboard.press("Enter");
  await expect(suggestions(page)).toHaveCount(1);
  const decided = ["Alpha row.", "Beta line.", "Gamma line.", "Gamma row."];
  await expect(paragraphs(page)).toHaveText(decided);
  await expect(paragraphs(viewerCopy.page)).toHaveText(decided);

  // Alice's reload shows the same state; she accepts the rest.
  await page.reload();
  await expect(paragraphs(page)).toHaveText(decided);
  await expect(suggestions(page)).toHaveCount(1);
  await page.getByTestId("suggestions-accept-all").click();
  const final = ["Alpha row.", "Beta line.", "Gamma row."];
  await expect(paragraphs(page)).toHaveText(final);
  await expect(paragraphs(bobCopy.page)).toHaveText(final);
  await expect(suggestions(bobCopy.page)).toHaveCount(0);
  expect(await account.documentMarkdown(documentId)).toBe("Alpha row.\n\nBeta line.\n\nGamma row.");
  await bobCopy.context.close();
  await viewerCopy.context.close();
});

/** The text of each range the page paints with the highlight `name` (suggestion-word-marks.ts). */
function painted(page: Page, name: string) {
  return page.evaluate(
    (highlight) =>
      [...(CSS.highlights.get(highlight) ?? [])]
        .filter((range): range is Range => range instanceof Range)
        .map((range) => range.toString()),
    name,
  );
}

test("a replaced paragraph marks only the words that changed, in every copy, the review list and the card, and again as a co-editor edits it", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const text = "Costs were flat against last year; the talks are paid for by the city grant.";
  const documentId = await account.createDocument(text);
  const bob = await new CoauthorClient(baseURL).signIn();
  await account.trpc("documents.share", { id: documentId, email: bob.email, role: "editor" });
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText([text]);
  const bobCopy = await openAs(browser, bob, baseURL, documentId);
  await page.getByTestId("assistant-mode-agent").click();
  await page.getByTestId("edit-mode-suggest").click();
  await ask(page, "agent", 'replace "were flat" with "rose by a tenth"');
  await waitForRunEnd(page);

  const replaced = text.replace("were flat", "rose by a tenth");
  for (const copy of [page, bobCopy.page]) {
    await expect(marked(copy, "deleted")).toHaveText(text);
    await expect(marked(copy, "inserted")).toHaveText(replaced);
    await expect.poll(() => painted(copy, "suggestion-removed-words")).toEqual(["were flat"]);
    await expect.poll(() => painted(copy, "suggestion-added-words")).toEqual(["rose by a tenth"]);
    const preview = suggestions(copy).first().getByTestId("suggestion-words");
    await expect(preview.locator("del")).toHaveText(["were flat"]);
    await expect(preview.locator("ins")).toHaveText(["rose by a tenth"]);
  }
  await marked(page, "inserted").click();
  await expect(page.getByTestId("suggestion-card").locator("ins")).toHaveText(["rose by a tenth"]);
  await expectNoAxeViolations(page, "a replaced paragraph with its words marked");

  // Bob adds a sentence to the new version at once: both copies mark it as inserted too.
  await marked(bobCopy.page, "inserted").click();
  await bobCopy.page.keyboard.press("Control+End");
  await bobCopy.page.keyboard.type(" Costs will rise again.");
  for (const copy of [page, bobCopy.page]) {
    await expect(marked(copy, "inserted")).toHaveText(`${replaced} Costs will rise again.`);
    await expect
      .poll(() => painted(copy, "suggestion-added-words"))
      .toEqual(["rose by a tenth", "Costs will rise again."]);
  }

  // Accepted, nothing is marked any more.
  await suggestions(page).first().getByRole("button", { name: "Accept", exact: true }).click();
  for (const copy of [page, bobCopy.page]) {
    await expect(paragraphs(copy)).toHaveText([`${replaced} Costs will rise again.`]);
    await expect.poll(() => painted(copy, "suggestion-added-words")).toEqual([]);
    await expect.poll(() => painted(copy, "suggestion-removed-words")).toEqual([]);
  }
  await bobCopy.context.close();
});

/** Holds back everything between `page` and the sync server, both ways, from `hold` until `release`. */
async function syncLink(page: Page): Promise<{ hold: () => void; release: () => void }> {
  let held: Array<() => void> | null = null;
  await page.routeWebSocket(/\/collab/, (socket) => {
    const server = socket.connectToServer();
    const pass = (send: () => void) => (held === null ? send() : held.push(send));
    socket.onMessage((message) => pass(() => server.send(message)));
    server.onMessage((message) => pass(() => socket.send(message)));
  });
  return {
    hold: () => {
      held = [];
    },
    release: () => {
      const queued = held ?? [];
      held = null;
      for (const send of queued) send();
    },
  };
}

test("one suggestion accepted in one copy and rejected in another at the same moment: both end with one of the two, the paragraph kept", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const original = "Costs were flat against last year.";
  const documentId = await account.createDocument(`# Budget\n\n${original}\n\nRisks follow.`);
  const bob = await new CoauthorClient(baseURL).signIn();
  await account.trpc("documents.share", { id: documentId, email: bob.email, role: "editor" });
  const bobContext = await contextFor(browser, bob, baseURL);
  const bobPage = await bobContext.newPage();
  const bobLink = await syncLink(bobPage);
  await bobPage.goto(`/documents/${documentId}`);
  await page.goto(`/documents/${documentId}`);
  await page.getByTestId("assistant-mode-agent").click();
  await page.getByTestId("edit-mode-suggest").click();
  await ask(page, "agent", 'replace "were flat" with "rose"');
  await waitForRunEnd(page);
  await expect(suggestions(bobPage)).toHaveCount(1);

  // Neither copy hears the other while Bob rejects and Alice accepts.
  bobLink.hold();
  await suggestions(bobPage).first().getByRole("button", { name: "Reject", exact: true }).click();
  await suggestions(page).first().getByRole("button", { name: "Accept", exact: true }).click();
  const accepted = "Costs rose against last year.";
  await expect(paragraphs(bobPage)).toHaveText([original, "Risks follow."]);
  await expect(paragraphs(page)).toHaveText([accepted, "Risks follow."]);
  bobLink.release();

  // One decision stands in both copies and in the stored document; the paragraph is there once.
  const both = async () => {
    const alice = (await paragraphs(page).allTextContents()).join("|");
    const bobs = (await paragraphs(bobPage).allTextContents()).join("|");
    return alice === bobs ? alice : `Alice: ${alice} / Bob: ${bobs}`;
  };
  await expect.poll(both).toMatch(/^Costs (rose|were flat) against last year\.\|Risks follow\.$/);
  const settled = (await both()).split("|");
  await expect.poll(() => account.documentMarkdown(documentId)).toBe(`# Budget\n\n${settled.join("\n\n")}`);
  await expect(suggestions(page)).toHaveCount(0);
  await bobContext.close();
});

test("Suggesting mode: a co-editor's own typing arrives as his suggestions in the writer's copy, she rejects them; the mode is remembered", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const documentId = await account.createDocument("Alpha line.\n\nBeta line.");
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(["Alpha line.", "Beta line."]);
  const bob = await coEditorPage(browser, account, documentId, baseURL);
  await expect(paragraphs(bob.page)).toHaveText(["Alpha line.", "Beta line."]);
  await bob.page.getByTestId("writing-mode").selectOption("suggesting");
  // Typing, a new paragraph and more typing, with no pause between them.
  await paragraphs(bob.page).nth(1).click();
  await bob.page.keyboard.press("End");
  await bob.page.keyboard.type(" Plus.");
  await bob.page.keyboard.press("Enter");
  await bob.page.keyboard.type("New one.");

  for (const copy of [page, bob.page]) {
    await expect(marked(copy, "deleted")).toHaveText(["Beta line."]);
    await expect(marked(copy, "inserted")).toHaveText(["Beta line. Plus.", "New one."]);
  }
  // Authored by Bob himself ("Test writer", as every test account is named), not by the agent.
  await expect(suggestions(page).first()).toContainText("Test writer");
  await expect(suggestions(page).first()).not.toContainText("Coauthor for");
  await expectNoAxeViolations(bob.page, "a writer in Suggesting mode");

  await page.getByTestId("suggestions-reject-all").click();
  for (const copy of [page, bob.page]) {
    await expect(paragraphs(copy)).toHaveText(["Alpha line.", "Beta line."]);
    await expect(copy.getByTestId("suggestion-review")).toHaveCount(0);
  }
  // Bob's choice is remembered for this document; Editing writes directly again.
  await bob.page.reload();
  await expect(bob.page.getByTestId("writing-mode")).toHaveValue("suggesting");
  await bob.page.getByTestId("writing-mode").selectOption("editing");
  await paragraphs(bob.page).nth(0).click();
  await bob.page.keyboard.press("End");
  await bob.page.keyboard.type(" Direct.");
  await expect(paragraphs(page)).toHaveText(["Alpha line. Direct.", "Beta line."]);
  await expect(page.getByTestId("suggestion-review")).toHaveCount(0);
  await bob.context.close();
});

test("Viewing mode: the document as it would be with every suggestion accepted, and typing changes nothing until Editing again", async ({
  page,
  account,
}) => {
  const documentId = await account.createDocument("Alpha line.\n\nBeta line.");
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(["Alpha line.", "Beta line."]);
  await page.getByTestId("writing-mode").selectOption("suggesting");
  await paragraphs(page).nth(1).click();
  await page.keyboard.press("End");
  await page.keyboard.type(" Plus.");
  await page.getByTestId("writing-mode").selectOption("viewing");
  // The old version of the changed paragraph is hidden, the new one unmarked; nothing is decided.
  await expect(paragraphs(page).filter({ visible: true })).toHaveText(["Alpha line.", "Beta line. Plus."]);
  await expect(marked(page, "deleted")).toHaveCount(1);
  await expect(page.getByTestId("document-editor")).toHaveAttribute("contenteditable", "false");
  // Keys go nowhere while viewing, with no pause before switching back and typing.
  await paragraphs(page).nth(0).click();
  await page.keyboard.press("End");
  await page.keyboard.type(" Viewed.");
  await page.getByTestId("writing-mode").selectOption("editing");
  await paragraphs(page).nth(0).click();
  await page.keyboard.press("End");
  await page.keyboard.type(" Edited.");
  await expect(paragraphs(page)).toHaveText(["Alpha line. Edited.", "Beta line.", "Beta line. Plus."]);
  await page.reload();
  await expect(page.getByTestId("writing-mode")).toHaveValue("editing");
  await expect(paragraphs(page)).toHaveText(["Alpha line. Edited.", "Beta line.", "Beta line. Plus."]);
});

test("Reject all takes a run's suggestions back, and Edit directly writes as before", async ({
  page,
  account,
}) => {
  await suggestIn(page, account, ["One.", "Two."], ['append "Three."']);
  await expect(marked(page, "inserted")).toHaveText(["Three."]);
  await page.getByTestId("suggestions-reject-all").click();
  await expect(paragraphs(page)).toHaveText(["One.", "Two."]);
  await expect(page.getByTestId("suggestion-review")).toHaveCount(0);
  // The choice is remembered; switching back edits directly.
  await page.reload();
  await page.getByTestId("assistant-mode-agent").click();
  await expect(page.getByTestId("edit-mode-suggest")).toHaveAttribute("aria-pressed", "true");
  await page.getByTestId("edit-mode-direct").click();
  await ask(page, "agent", 'append "Three."');
  await waitForRunEnd(page);
  await expect(paragraphs(page)).toHaveText(["One.", "Two.", "Three."]);
  await expect(page.getByTestId("suggestion-review")).toHaveCount(0);
});

test("Accept all / Reject all for one run: the review narrows to one run's suggestions and decides only those", async ({
  page,
  account,
}) => {
  await suggestIn(page, account, ["One."], ['append "Two."', 'append "Three."']);
  await expect(marked(page, "inserted")).toHaveText(["Two.", "Three."]);

  const from = page.getByTestId("suggestions-from");
  // Everyone, then one entry per run, in the order of their first suggestion.
  await expect(from.locator("option")).toHaveCount(3);
  await expectNoAxeViolations(page, "the review narrowed to one run");
  await from.selectOption({ index: 2 });
  await expect(suggestions(page)).toHaveCount(1);
  await expect(suggestions(page)).toContainText("Three.");
  await page.getByTestId("suggestions-reject-all").click();
  // Only the second run's suggestion went; the list shows everyone's again.
  await expect(paragraphs(page)).toHaveText(["One.", "Two."]);
  await expect(marked(page, "inserted")).toHaveText(["Two."]);
  await expect(suggestions(page)).toHaveCount(1);
  await expect(from).toHaveCount(0);
});

test("Alt+Shift+. and Alt+Shift+, go to the next and previous pending suggestion, wrapping around", async ({
  page,
  account,
}) => {
  await suggestIn(page, account, ["One.", "Two."], ['append "Three."', 'append "Four."']);
  await expect(marked(page, "inserted")).toHaveText(["Three.", "Four."]);

  /** The text of the suggested block the caret is in ("" when it is in none). */
  const caretSuggestion = () =>
    page.evaluate(
      () => window.getSelection()?.anchorNode?.parentElement?.closest("[data-suggestion]")?.textContent ?? "",
    );
  await paragraphs(page).first().click();
  await page.keyboard.press("Alt+Shift+Period");
  await expect.poll(caretSuggestion).toBe("Three.");
  await page.keyboard.press("Alt+Shift+Period");
  await expect.poll(caretSuggestion).toBe("Four.");
  await page.keyboard.press("Alt+Shift+Period");
  await expect.poll(caretSuggestion).toBe("Three.");
  await page.keyboard.press("Alt+Shift+Comma");
  await expect.poll(caretSuggestion).toBe("Four.");
  // Nothing was typed by the shortcuts.
  await expect(paragraphs(page)).toHaveText(["One.", "Two.", "Three.", "Four."]);
});

test("a change inside a list is the old list and the new one, apart in every copy and after a reload, until decided", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const documentId = await account.createDocument("Intro.\n\n- one\n- two");
  const bob = await new CoauthorClient(baseURL).signIn();
  await account.trpc("documents.share", { id: documentId, email: bob.email, role: "editor" });
  await page.goto(`/documents/${documentId}`);
  await expect(page.getByTestId("document-editor").locator("li")).toHaveText(["one", "two"]);
  const bobCopy = await openAs(browser, bob, baseURL, documentId);
  await page.getByTestId("assistant-mode-agent").click();
  await page.getByTestId("edit-mode-suggest").click();
  await ask(page, "agent", 'replace "two" with "deux"');
  await waitForRunEnd(page);

  await page.reload();
  for (const copy of [page, bobCopy.page]) {
    const lists = copy.getByTestId("document-editor").locator("ul");
    await expect(lists).toHaveCount(2);
    await expect(lists.nth(0)).toHaveAttribute("data-suggestion", "deleted");
    await expect(lists.nth(0).locator("li")).toHaveText(["one", "two"]);
    await expect(lists.nth(1)).toHaveAttribute("data-suggestion", "inserted");
    await expect(lists.nth(1).locator("li")).toHaveText(["one", "deux"]);
  }
  await suggestions(bobCopy.page).nth(0).getByRole("button", { name: "Reject", exact: true }).click();
  for (const copy of [page, bobCopy.page]) {
    await expect(copy.getByTestId("document-editor").locator("ul")).toHaveCount(1);
    await expect(copy.getByTestId("document-editor").locator("li")).toHaveText(["one", "two"]);
  }
  await expect.poll(() => account.documentMarkdown(documentId)).toBe("Intro.\n\n- one\n- two");
  await bobCopy.context.close();
});

test("a run decides its own suggestions: accepted, the paragraph stays unmarked; rejected, it is gone", async ({
  page,
  account,
}) => {
  await suggestIn(page, account, ["One."], ['append "Two." and accept it']);
  await expect(paragraphs(page)).toHaveText(["One.", "Two."]);
  await expect(page.getByTestId("suggestion-review")).toHaveCount(0);
  await ask(page, "agent", 'append "Three." and reject it');
  await waitForRunEnd(page);
  await expect(paragraphs(page)).toHaveText(["One.", "Two."]);
  await expect(page.getByTestId("suggestion-review")).toHaveCount(0);
  await page.reload();
  await expect(paragraphs(page)).toHaveText(["One.", "Two."]);
});

test("the card beside a suggested block: its author and Accept / Reject, reached with Tab from the text", async ({
  page,
  account,
}) => {
  await suggestIn(page, account, ["One.", "Two.", "Three."], ['replace "T" with "t"']);
  await expect(marked(page, "inserted")).toHaveText(["two.", "three."]);
  const card = page.getByTestId("suggestion-card");
  await paragraphs(page).first().click();
  await expect(card).toHaveCount(0);
  await marked(page, "inserted").first().click();
  await expect(card).toContainText("Coauthor for");
  await expect(card).toContainText("Replaces a block");
  await expectNoAxeViolations(page, "the suggestion card");
  // Keyboard only: Tab from the text reaches the card's Accept.
  await page.keyboard.press("Tab");
  await expect(card.getByRole("button", { name: "Accept", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(paragraphs(page)).toHaveText(["One.", "two.", "Three.", "three."]);
  await expect(suggestions(page)).toHaveCount(1);
  await marked(page, "deleted").click();
  await card.getByRole("button", { name: "Reject", exact: true }).click();
  await expect(paragraphs(page)).toHaveText(["One.", "two.", "Three."]);
  await expect(card).toHaveCount(0);
});

test("Show authorship: the agent's direct edits and accepted suggestions name who wrote them, and a person who edits such a block is named after", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const documentId = await account.createDocument("Written by people.");
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(["Written by people."]);
  await page.getByTestId("assistant-mode-agent").click();
  await page.getByTestId("edit-mode-direct").click();
  await ask(page, "agent", 'append "Written by the agent."');
  await waitForRunEnd(page);
  await page.getByTestId("edit-mode-suggest").click();
  await ask(page, "agent", 'append "Suggested, then accepted."');
  await waitForRunEnd(page);
  await suggestions(page).first().getByRole("button", { name: "Accept", exact: true }).click();
  await expect(page.getByTestId("suggestion-review")).toHaveCount(0);

  const bob = await coEditorPage(browser, account, documentId, baseURL);
  const blocks = (copy: Page) => copy.getByTestId("document-editor").locator(":scope > *");
  await expect(blocks(bob.page)).toHaveText([
    "Written by people.",
    "Written by the agent.",
    "Suggested, then accepted.",
  ]);
  // Bob edits the agent's paragraph, with no pause before showing authorship.
  await paragraphs(bob.page).nth(1).click();
  await bob.page.keyboard.press("End");
  await bob.page.keyboard.type(" Bob too.");
  await bob.page.getByTestId("authorship-toggle").click();
  await expect(bob.page.getByTestId("authorship-toggle")).toHaveAttribute("aria-pressed", "true");
  for (const copy of [page, bob.page]) {
    await expect(blocks(copy).nth(0)).not.toHaveAttribute("data-written-by");
    await expect(blocks(copy).nth(1)).toHaveAttribute(
      "data-authors",
      "Written by Coauthor for Test writer, then Test writer",
    );
    await expect(blocks(copy).nth(1)).toHaveAttribute("data-written-by", "person");
    await expect(blocks(copy).nth(2)).toHaveAttribute("data-authors", "Written by Coauthor for Test writer");
    await expect(blocks(copy).nth(2)).toHaveAttribute("data-written-by", "agent");
  }
  await expect(bob.page.getByTestId("authorship-key")).toContainText("Coauthor for Test writer");
  await expect(bob.page.getByTestId("authorship-key")).toContainText("Test writer");
  await expectNoAxeViolations(bob.page, "the document with authorship shown");
  // It outlives a reload: it is in the shared document.
  await page.reload();
  await expect(blocks(page).nth(2)).toHaveAttribute("data-written-by", "agent");
  await bob.context.close();
});
