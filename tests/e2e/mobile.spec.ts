import { expect, test } from "../lib/test.ts";
import { ask, createDocument, paragraphs, typeParagraphs, waitForRunEnd } from "./helpers.ts";

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
