import AxeBuilder from "@axe-core/playwright";
import type { Locator } from "@playwright/test";
import { expect, type Page } from "../lib/test.ts";

/** WCAG 2.0, 2.1 and 2.2, levels A and AA. */
const WCAG_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

/** Runs axe-core on the page as it is now and expects no WCAG A/AA violation; `state` names it in a failure. */
export async function expectNoAxeViolations(page: Page, state: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_AA_TAGS).analyze();
  const found = violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
        .map((node) => node.target.join(" "))
        .join(", ")}`,
  );
  expect(found, `axe violations on ${state}`).toEqual([]);
}

/** Presses Tab (Shift+Tab when `backwards`) until `target` has focus, at most `limit` times. */
export async function tabTo(page: Page, target: Locator, { backwards = false, limit = 40 } = {}) {
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
  }
  await expect(target).toBeFocused();
}

/** Starts recording what the page's live region announces; read it back with `announcements`. */
export async function recordAnnouncements(page: Page) {
  await page.getByTestId("announcer").evaluate((region) => {
    const log: string[] = [];
    (window as unknown as { announced: string[] }).announced = log;
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === "characterData") log.push(record.target.textContent ?? "");
        for (const node of record.addedNodes) log.push(node.textContent ?? "");
      }
    }).observe(region, { childList: true, subtree: true, characterData: true });
  });
}

/** What the live region announced since `recordAnnouncements`, in order. */
export function announcements(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { announced: string[] }).announced);
}
