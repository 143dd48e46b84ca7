import { expect, type Page, test } from "../lib/test.ts";
import { ask, createDocument, paragraphs, typeParagraphs, waitForRunEnd } from "./helpers.ts";

/** True when the page scrolls sideways (something is wider than the screen). */
const overflowsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test.describe("phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("on a phone the assistant is a sheet the writer opens and closes; the editor keeps the full width", async ({
    page,
  }) => {
    await createDocument(page);
    const column = page.locator(".editor-column");
    const toggle = page.getByTestId("assistant-toggle");
    // Closed at first: only its button shows, and the editor spans the screen.
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(toggle).toHaveText(/Assistant/);
    await expect(page.getByTestId("assistant-input")).toBeHidden();
    expect((await column.boundingBox())?.width).toBe(390);
    // The toolbar is one row that scrolls sideways, not a wrapped block.
    const toolbar = page.getByRole("toolbar", { name: "Formatting" });
    expect(await toolbar.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    expect((await toolbar.boundingBox())?.height).toBeLessThan(50);

    await typeParagraphs(page, ["Written on a phone."]);
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const sheet = page.getByTestId("assistant-panel");
    const box = await sheet.boundingBox();
    expect(box?.width).toBe(390);
    // The sheet covers the lower part of the screen, over the editor, which keeps its width.
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBe(844);
    expect((await column.boundingBox())?.width).toBe(390);

    await ask(page, "agent", 'append "X"');
    await waitForRunEnd(page);
    await expect(paragraphs(page)).toHaveText(["Written on a phone.", "X"]);

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByTestId("assistant-input")).toBeHidden();
    expect((await column.boundingBox())?.width).toBe(390);
    await expect(paragraphs(page).last()).toBeInViewport();

    // Esc in the open sheet (no run going) closes it too, and focus lands on its button.
    await toggle.click();
    await page.getByTestId("assistant-input").focus();
    await page.keyboard.press("Escape");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(toggle).toBeFocused();
  });
});

// An iPad Air in portrait, and the narrowest tablet width (iPad mini), just above the phone layout.
for (const viewport of [
  { width: 820, height: 1180 },
  { width: 768, height: 1024 },
]) {
  test(`on a ${viewport.width} px tablet the panel sits beside a usable editor, the toolbar stays one row, nothing overflows`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await createDocument(page);
    const column = page.locator(".editor-column");
    const content = page.getByTestId("document-editor");
    const toggle = page.getByTestId("assistant-toggle");
    const toolbar = page.getByRole("toolbar", { name: "Formatting" });
    const panel = page.getByTestId("assistant-panel");
    expect(await overflowsSideways(page)).toBe(false);

    await typeParagraphs(page, ["Written on a tablet."]);
    if ((await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByTestId("assistant-input")).toBeVisible();
    // Side by side: the panel beside the editor, the editor wide enough for a line of prose.
    const panelBox = await panel.boundingBox();
    const columnBox = await column.boundingBox();
    expect((columnBox?.x ?? 0) + (columnBox?.width ?? 0)).toBeLessThanOrEqual(panelBox?.x ?? 0);
    expect((await content.boundingBox())?.width).toBeGreaterThanOrEqual(440);
    // The toolbar is one row (it scrolls sideways when the tools do not fit), within the column.
    expect((await toolbar.boundingBox())?.height).toBeLessThan(50);
    expect((await toolbar.boundingBox())?.width).toBeLessThanOrEqual(columnBox?.width ?? 0);
    expect(await overflowsSideways(page)).toBe(false);

    await ask(page, "agent", 'append "Y"');
    await waitForRunEnd(page);
    await expect(paragraphs(page)).toHaveText(["Written on a tablet.", "Y"]);
    expect(await overflowsSideways(page)).toBe(false);

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByTestId("assistant-input")).toBeHidden();
    // Closed, the editor takes the room back.
    expect((await column.boundingBox())?.width).toBeGreaterThan(columnBox?.width ?? 0);
    expect(await overflowsSideways(page)).toBe(false);
    await expect(paragraphs(page).last()).toBeInViewport();
  });
}
