import { expect, type Page, test } from "../lib/test.ts";
import { announcements, expectNoAxeViolations, recordAnnouncements } from "./accessibility-helpers.ts";
import {
  ask,
  blockIds,
  blocks,
  createDocument,
  paragraphs,
  pressUntil,
  typeParagraphs,
  waitForRunEnd,
  waitForSave,
} from "./helpers.ts";

// Live agent edits a writer can follow: highlights, undo that is the writer's own, Keep / Undo run,
// typing during a run, the selection sent as context, and the growing insert preview.

const keep = (page: Page) => page.getByTestId("assistant-keep");
const undoRun = (page: Page) => page.getByTestId("assistant-undo-run");

/** Records the text of every block that carries the agent highlight, whenever the editor changes. */
async function recordHighlights(page: Page) {
  await page.getByTestId("document-editor").evaluate((editor) => {
    const seen = new Set<string>();
    (window as unknown as { highlighted: Set<string> }).highlighted = seen;
    new MutationObserver(() => {
      for (const block of editor.querySelectorAll("[data-agent-highlight]"))
        seen.add(block.textContent ?? "");
    }).observe(editor, { attributes: true, subtree: true, attributeFilter: ["data-agent-highlight"] });
  });
}

/** Texts of every block highlighted since `recordHighlights`. */
const highlighted = (page: Page) =>
  page.evaluate(() => [...(window as unknown as { highlighted: Set<string> }).highlighted].sort());

/** Holds back the run's tool results from the second on, until the returned function is called. */
async function holdLaterResults(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let results = 0;
  await page.route("**/api/llm/agent/callback", async (route) => {
    results += 1;
    if (results >= 2) await released;
    await route.continue();
  });
  return release;
}

const shellScrollTop = (page: Page) => page.locator(".editor-shell").evaluate((shell) => shell.scrollTop);

test.describe("highlights", () => {
  // The scroll tests type 40 paragraphs, follow a run and run axe on the long page: 40–56 s each on
  // a loaded 2-core machine, where one ran out of the default 60 s inside axe (a clean-clone run
  // beside other work). The budget is for the machine; nothing here waits on a clock.
  test.describe.configure({ timeout: 120_000 });
  test("an appended paragraph is the only block highlighted, and the highlight fades", async ({ page }) => {
    await createDocument(page);
    await typeParagraphs(page, ["One.", "Two.", "Three."]);
    await recordHighlights(page);
    await ask(page, "agent", 'append "Four."');
    const landed = paragraphs(page).filter({ hasText: "Four." });
    await expect(landed).toHaveAttribute("data-agent-highlight", "true", { timeout: 15_000 });
    await expect(landed).toHaveClass(/agent-edit-highlight/);
    await waitForRunEnd(page);
    await expect(landed).not.toHaveAttribute("data-agent-highlight", { timeout: 5_000 });
    await expect(landed).not.toHaveClass(/agent-edit-highlight/);
    // Never the untouched paragraph before it, not even for a moment.
    expect(await highlighted(page)).toEqual(["Four."]);
  });

  test("a deletion highlights no neighbour and leaves a brief, announced trace where the blocks were", async ({
    page,
  }) => {
    await createDocument(page);
    await typeParagraphs(page, ["Keep me.", "drop one", "drop two", "drop three", "Also keep."]);
    await recordHighlights(page);
    await recordAnnouncements(page);
    await ask(page, "agent", 'delete paragraphs containing "drop"');
    const trace = page.getByTestId("agent-removal-trace");
    await expect(trace).toHaveText("3 paragraphs removed", { timeout: 15_000 });
    await expect(blocks(page)).toHaveText(["Keep me.", "Also keep."]);
    // Between the two blocks that were around the removed ones.
    const [above, box, below] = await Promise.all([
      paragraphs(page).first().boundingBox(),
      trace.boundingBox(),
      paragraphs(page).last().boundingBox(),
    ]);
    expect(box).not.toBeNull();
    expect(box?.y ?? 0).toBeGreaterThanOrEqual((above?.y ?? 0) + (above?.height ?? 0));
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(below?.y ?? 0);
    await waitForRunEnd(page);
    await expect(trace).toHaveCount(0, { timeout: 10_000 });
    expect(await highlighted(page)).toEqual([]);
    const said = await announcements(page);
    expect(said.filter((line) => line === "3 paragraphs removed")).toHaveLength(1);
  });

  test("an edit below the fold is scrolled into view while the writer follows the run", async ({ page }) => {
    await createDocument(page);
    await typeParagraphs(
      page,
      Array.from({ length: 40 }, (_, i) => `Line ${i + 1}`),
    );
    await page.locator(".editor-shell").evaluate((element) => {
      element.scrollTop = 0;
    });
    await expect(paragraphs(page).first()).toBeInViewport();

    await ask(page, "agent", 'append "Far below"');
    await expect(paragraphs(page).filter({ hasText: "Far below" })).toBeInViewport({ timeout: 15_000 });
    await waitForRunEnd(page);
    await expect(page.getByTestId("jump-to-change")).toHaveCount(0);
  });

  test("once the writer scrolls away, edits out of sight never move the view; a button jumps to them", async ({
    page,
  }) => {
    await createDocument(page);
    await typeParagraphs(
      page,
      Array.from({ length: 40 }, (_, i) => `Line ${i + 1}`),
    );
    // From its second call on, the run waits until the writer has scrolled away (its results are
    // held back), so its later edits land out of sight however fast the machine runs it.
    const release = await holdLaterResults(page);
    await ask(page, "agent", "count to 6");
    await expect(paragraphs(page).filter({ hasText: /^1$/ })).toBeInViewport({ timeout: 15_000 });
    await page.locator(".editor-shell").hover();
    await page.mouse.wheel(0, -20_000);
    await expect(paragraphs(page).first()).toBeInViewport();
    await expect.poll(() => shellScrollTop(page)).toBe(0);
    release();

    await waitForRunEnd(page);
    await expect(paragraphs(page).filter({ hasText: /^6$/ })).toHaveCount(1);
    expect(await shellScrollTop(page)).toBe(0);
    await expect(paragraphs(page).filter({ hasText: /^6$/ })).not.toBeInViewport();

    const jump = page.getByTestId("jump-to-change");
    await expect(jump).toHaveText(/Jump to the agent's change/);
    await expectNoAxeViolations(page, "the offer to jump to a change");
    await jump.click();
    await expect(paragraphs(page).filter({ hasText: /^6$/ })).toBeInViewport();
    await expect(jump).toHaveCount(0);
  });

  test("while the writer types near the top, an edit far below does not move the view", async ({ page }) => {
    await createDocument(page);
    await typeParagraphs(
      page,
      Array.from({ length: 40 }, (_, i) => `Line ${i + 1}`),
    );
    // The run's first edit lands far below and the view sets off after it; the writer clicks at
    // the top at once, before that scroll is over. The later edits wait until the writer has typed.
    const release = await holdLaterResults(page);
    await ask(page, "agent", "count to 8");
    await expect(paragraphs(page).filter({ hasText: /^1$/ })).toHaveCount(1, { timeout: 15_000 });
    await paragraphs(page).first().click();
    await page.keyboard.press("End");
    await page.keyboard.type(" typed");
    await expect(paragraphs(page).first()).toBeInViewport();
    const top = await shellScrollTop(page);
    release();
    await waitForRunEnd(page);
    await expect(paragraphs(page).first()).toHaveText("Line 1 typed");
    expect(await shellScrollTop(page)).toBe(top);
    await expect(page.getByTestId("jump-to-change")).toBeVisible();
  });
});

test.describe("undo is the writer's own", () => {
  test("Ctrl+Z undoes the writer's typing, never the agent's paragraphs", async ({ page }) => {
    await createDocument(page);
    await typeParagraphs(page, ["Alpha one.", "Beta two."]);
    await waitForSave(page);

    await ask(page, "agent", "count to 3");
    await waitForRunEnd(page);
    const after = ["Alpha one.", "Beta two.", "1", "2", "3"];
    await expect(blocks(page)).toHaveText(after);

    await paragraphs(page).first().click();
    await page.keyboard.press("End");
    await page.keyboard.type(" Extra.");
    await expect(blocks(page)).toHaveText(["Alpha one. Extra.", "Beta two.", "1", "2", "3"]);
    await pressUntil(page, "Control+z", blocks(page), after);
    await pressUntil(page, "Control+Shift+z", blocks(page), [
      "Alpha one. Extra.",
      "Beta two.",
      "1",
      "2",
      "3",
    ]);
  });

  test("a run stopped midway is taken back whole by Undo run", async ({ page }) => {
    await createDocument(page);
    await typeParagraphs(page, ["Before the run."]);
    await waitForSave(page);
    await ask(page, "agent", "count to 20");
    await expect(paragraphs(page).filter({ hasText: /^3$/ })).toHaveCount(1, { timeout: 15_000 });
    await page.getByTestId("assistant-stop").click();
    await waitForRunEnd(page, "Stopped");
    expect(await paragraphs(page).count()).toBeGreaterThan(3);

    await undoRun(page).click();
    await expect(blocks(page)).toHaveText(["Before the run."]);
  });
});

test.describe("Keep / Undo run", () => {
  test("Undo run takes back the agent's paragraphs and keeps what the writer typed since", async ({
    page,
  }) => {
    await createDocument(page);
    await typeParagraphs(page, ["Writer's line."]);
    await ask(page, "agent", "count to 2");
    await waitForRunEnd(page);
    await expect(page.getByTestId("assistant-run-review")).toContainText("2 blocks added");

    await paragraphs(page).first().click();
    await page.keyboard.press("End");
    await page.keyboard.type(" And more.");
    await expect(blocks(page)).toHaveText(["Writer's line. And more.", "1", "2"]);

    await undoRun(page).click();
    await expect(blocks(page)).toHaveText(["Writer's line. And more."]);
    await expect(undoRun(page)).toBeHidden();
    await waitForSave(page);
    await page.reload();
    await expect(blocks(page)).toHaveText(["Writer's line. And more."]);
  });

  test("Undo run restores a block the run changed, leaving the writer's edit of another block", async ({
    page,
  }) => {
    await createDocument(page);
    await typeParagraphs(page, ["The cat sat.", "Notes here."]);
    await ask(page, "agent", 'replace "cat" with "dog"');
    await waitForRunEnd(page);
    await expect(blocks(page)).toHaveText(["The dog sat.", "Notes here."]);

    await paragraphs(page).last().click();
    await page.keyboard.press("End");
    await page.keyboard.type(" Mine.");
    await undoRun(page).click();
    await expect(blocks(page)).toHaveText(["The cat sat.", "Notes here. Mine."]);
  });

  test("Undo run puts deleted paragraphs back in their place", async ({ page }) => {
    await createDocument(page);
    await typeParagraphs(page, ["Keep me.", "drop this one", "Also keep.", "drop that one too", "End."]);
    await ask(page, "agent", 'delete paragraphs containing "drop"');
    await waitForRunEnd(page);
    await expect(blocks(page)).toHaveText(["Keep me.", "Also keep.", "End."]);

    await paragraphs(page).last().click();
    await page.keyboard.press("End");
    await page.keyboard.type(" Typed.");
    await undoRun(page).click();
    await expect(blocks(page)).toHaveText([
      "Keep me.",
      "drop this one",
      "Also keep.",
      "drop that one too",
      "End. Typed.",
    ]);
  });

  test("Keep dismisses the offer and leaves the edits; a new prompt dismisses it too", async ({ page }) => {
    await createDocument(page);
    await typeParagraphs(page, ["Start."]);
    await ask(page, "agent", 'append "Kept text"');
    await waitForRunEnd(page);
    await keep(page).click();
    await expect(keep(page)).toBeHidden();
    await expect(undoRun(page)).toBeHidden();
    await expect(blocks(page)).toHaveText(["Start.", "Kept text"]);

    await ask(page, "agent", 'append "Another"');
    await waitForRunEnd(page);
    await expect(undoRun(page)).toBeVisible();
    await ask(page, "chat", "How long is this?");
    await expect(undoRun(page)).toBeHidden();
    await waitForRunEnd(page);
    await expect(blocks(page)).toHaveText(["Start.", "Kept text", "Another"]);
  });
});

test("while a run edits, the writer keeps typing; their words survive the run and its undo", async ({
  page,
}) => {
  await createDocument(page);
  await typeParagraphs(page, ["Mine."]);
  const editor = page.getByTestId("document-editor");

  await ask(page, "agent", "count to 20");
  await expect(paragraphs(page).filter({ hasText: /^1$/ })).toHaveCount(1, { timeout: 15_000 });
  await expect(editor).toHaveAttribute("contenteditable", "true");

  await paragraphs(page).first().click();
  await page.keyboard.press("End");
  await page.keyboard.type(" Typed during the run.");
  await expect(paragraphs(page).filter({ hasText: /^4$/ })).toHaveCount(1, { timeout: 15_000 });
  await expect(paragraphs(page).first()).toHaveText("Mine. Typed during the run.");

  await page.getByTestId("assistant-stop").click();
  await waitForRunEnd(page, "Stopped");
  await expect(paragraphs(page).first()).toHaveText("Mine. Typed during the run.");
  await undoRun(page).click();
  await expect(blocks(page)).toHaveText(["Mine. Typed during the run."]);
  await waitForSave(page);
  await page.reload();
  await expect(blocks(page)).toHaveText(["Mine. Typed during the run."]);
});

test("the selection at the time of the prompt is sent with its text and block ids", async ({ page }) => {
  await createDocument(page);
  await typeParagraphs(page, ["First paragraph here.", "Second paragraph here.", "Third stays out."]);
  const ids = await blockIds(page);
  expect(ids).toHaveLength(3);
  expect(new Set(ids).size).toBe(3);

  // Select the first two paragraphs with the keyboard.
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("Shift+ArrowDown");
  await page.keyboard.press("Shift+End");

  const request = page.waitForRequest(
    (candidate) => candidate.method() === "POST" && new URL(candidate.url()).pathname === "/api/llm/agent",
  );
  await ask(page, "agent", "What does this say?");
  const body: unknown = (await request).postDataJSON();
  expect(body).toMatchObject({
    prompt: "What does this say?",
    selection: { blockIds: [ids[0], ids[1]] },
  });
  const text = (body as { selection: { text: string } }).selection.text;
  expect(text).toContain("First paragraph here.");
  expect(text).toContain("Second paragraph here.");
  expect(text).not.toContain("Third");
  await waitForRunEnd(page);
});

test("a long insert types itself in as a preview, then lands as one paragraph", async ({ page }) => {
  const sentence =
    "This sentence is long on purpose, so that the model needs many small pieces to write it, " +
    "and the writer can watch it grow in place before the real paragraph lands in the document at the end.";
  expect(sentence.length).toBeGreaterThanOrEqual(190);
  await createDocument(page);
  await typeParagraphs(page, ["Opening line."]);

  // Every text the preview shows, and whether the paragraph had landed at that moment.
  await page.evaluate(() => {
    const seen: { text: string; landed: boolean }[] = [];
    (window as unknown as { previewLog: typeof seen }).previewLog = seen;
    const observer = new MutationObserver(() => {
      const preview = document.querySelector('[data-testid="agent-preview"]');
      const text = preview?.textContent ?? null;
      if (text === null || text === seen.at(-1)?.text) return;
      const landed = document
        .querySelector('[data-testid="document-editor"]')
        ?.textContent?.includes("at the end.");
      seen.push({ text, landed: landed === true });
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  const readPreview = () =>
    page.evaluate(() => document.querySelector('[data-testid="agent-preview"]')?.textContent ?? null);

  await ask(page, "agent", `append "${sentence}"`);
  const preview = page.getByTestId("agent-preview");
  await expect(preview).toBeVisible({ timeout: 15_000 });
  const first = await readPreview();
  await expect.poll(readPreview).not.toBe(first);
  const second = await readPreview();
  if (first !== null && second !== null) expect(second.length).toBeGreaterThan(first.length);

  await expect(paragraphs(page).filter({ hasText: sentence })).toHaveCount(1, { timeout: 15_000 });
  await expect(preview).toHaveCount(0);
  await waitForRunEnd(page);

  const log = await page.evaluate(
    () => (window as unknown as { previewLog: { text: string; landed: boolean }[] }).previewLog,
  );
  expect(log.length).toBeGreaterThanOrEqual(3);
  for (const [index, entry] of log.entries()) {
    expect(entry.landed).toBe(false);
    expect(sentence.startsWith(entry.text)).toBe(true);
    if (index > 0) expect(entry.text.length).toBeGreaterThan(log[index - 1]?.text.length ?? 0);
  }
  // The preview never became part of the document.
  await waitForSave(page);
  await page.reload();
  await expect(blocks(page)).toHaveText(["Opening line.", sentence]);
});
