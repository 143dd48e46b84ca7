// Deciding suggestions in a real browser (issue #36): a document with `count` pending replacements
// (imported from CriticMarkup, each an old paragraph struck through and a new one) opened in
// Chromium; the time from the click on **Accept all** (or **Reject all**) to the first frame in
// which no paragraph is marked any more — React, Lexical's update, the Yjs transaction and the DOM
// together. Beside them, the peer measured in the same run: the same number of paragraphs deleted
// at once (Ctrl+A, Backspace) in a document without suggestions, the browser's cost of an edit of
// that size. Figures, not assertions.
import { type Browser, chromium, type Page } from "@playwright/test";
import { contextFor } from "../lib/browser-context.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { round } from "./stats.ts";

export interface BrowserSuggestionsRow {
  suggestions: number;
  acceptAllMs: number;
  rejectAllMs: number;
  /** The peer: Ctrl+A, Backspace over as many plain paragraphs (ms). */
  deleteAllMs: number;
}

/** Done once the page holds at most `atMost` elements matching `selector`. */
interface Until {
  selector: string;
  atMost: number;
}

type TimerHolder = Window & { coauthorFrameTimer?: Promise<number> };

/** Milliseconds from the next `trigger` event (click or keydown) to the first frame where `until` holds. */
async function timeToFrame(page: Page, trigger: "click" | "keydown", until: Until, act: () => Promise<void>) {
  // Set up in the page before acting: a timer started after the event would wait for ever.
  await page.evaluate(
    ({ trigger, until }) => {
      (window as TimerHolder).coauthorFrameTimer = new Promise<number>((resolve, reject) => {
        let start: number | null = null;
        document.addEventListener(
          trigger,
          () => {
            start ??= performance.now();
          },
          { capture: true, once: true },
        );
        const check = () => document.querySelectorAll(until.selector).length <= until.atMost;
        const giveUp = setTimeout(() => reject(new Error(`not done 30 s after the ${trigger}`)), 30_000);
        const frame = () => {
          if (start !== null && check()) {
            clearTimeout(giveUp);
            resolve(performance.now() - start);
          } else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      });
    },
    { trigger, until },
  );
  await act();
  return page.evaluate(
    () => (window as TimerHolder).coauthorFrameTimer ?? Promise.reject(new Error("no timer")),
  );
}

const NONE_MARKED: Until = { selector: "[data-suggestion]", atMost: 0 };

async function openDocument(browser: Browser, client: CoauthorClient, documentId: string): Promise<Page> {
  const page = await (await contextFor(browser, client, client.baseURL)).newPage();
  await page.goto(`/documents/${documentId}`);
  return page;
}

async function measure(
  browser: Browser,
  client: CoauthorClient,
  count: number,
): Promise<BrowserSuggestionsRow> {
  const criticMarkup = Array.from({ length: count }, (_, i) => `Line ${i} was {~~old~>new~~}.`).join("\n\n");
  const decide = async (button: "accept" | "reject") => {
    const { id } = await client.trpc<{ id: string }>("documents.create", {
      title: `Bench ${button}`,
      markdown: criticMarkup,
      format: "criticmarkup",
    });
    const page = await openDocument(browser, client, id);
    const inserted = page.getByTestId("document-editor").locator('[data-suggestion="inserted"]');
    await inserted.nth(count - 1).waitFor({ timeout: 60_000 });
    const ms = await timeToFrame(page, "click", NONE_MARKED, () =>
      page.getByTestId(`suggestions-${button}-all`).click(),
    );
    await page.context().close();
    return ms;
  };
  const acceptAllMs = await decide("accept");
  const rejectAllMs = await decide("reject");

  const plain = Array.from({ length: count }, (_, i) => `Line ${i} was new.`).join("\n\n");
  const page = await openDocument(browser, client, await client.createDocument(plain));
  const paragraphs = page.getByTestId("document-editor").locator("p");
  await paragraphs.nth(count - 1).waitFor({ timeout: 60_000 });
  await page.locator('[data-testid="document-editor"][contenteditable="true"]').waitFor();
  await paragraphs.first().click();
  await page.keyboard.press("Control+A");
  const deleteAllMs = await timeToFrame(
    page,
    "keydown",
    { selector: '[data-testid="document-editor"] p', atMost: 1 },
    () => page.keyboard.press("Backspace"),
  );
  await page.context().close();
  return {
    suggestions: count,
    acceptAllMs: round(acceptAllMs),
    rejectAllMs: round(rejectAllMs),
    deleteAllMs: round(deleteAllMs),
  };
}

/** One row per number of pending suggestions, in one Chromium. */
export async function benchBrowserSuggestions(
  url: string,
  counts: number[],
): Promise<BrowserSuggestionsRow[]> {
  const client = await new CoauthorClient(url).signIn();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  try {
    const rows: BrowserSuggestionsRow[] = [];
    for (const count of counts) rows.push(await measure(browser, client, count));
    return rows;
  } finally {
    await browser.close();
  }
}

export function printBrowserSuggestions(rows: BrowserSuggestionsRow[]): void {
  console.log(
    "\nSuggestions in Chromium: from the click to the first frame without marks, beside deleting as many paragraphs at once (peer)",
  );
  console.table(
    rows.map((row) => ({
      "pending suggestions": row.suggestions,
      "Accept all ms": row.acceptAllMs,
      "Reject all ms": row.rejectAllMs,
      "target ms": "≤ 100 at 1,000",
      "Ctrl+A, Backspace over as many paragraphs ms (peer)": row.deleteAllMs,
    })),
  );
}
