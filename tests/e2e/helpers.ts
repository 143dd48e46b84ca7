import type { Browser, BrowserContext, Locator } from "@playwright/test";
import { contextFor } from "../lib/browser-context.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { expect, type Page } from "../lib/test.ts";

export { contextFor };

/** Creates a document from the list page and waits for its editor. */
export async function createDocument(page: Page): Promise<string> {
  await page.goto("/");
  await page.getByTestId("new-document").click();
  await page.waitForURL(/\/documents\/[^/]+$/);
  // Editable once synced with the server.
  await expect(page.getByTestId("document-editor")).toHaveAttribute("contenteditable", "true", {
    timeout: 15_000,
  });
  return page.url();
}

/**
 * Creates a document holding `markdown` through the app's own API (same session as the page) and
 * opens it; `lastText` is text of its end, seen once the editor shows all of it.
 */
export async function openSeededDocument(page: Page, markdown: string, lastText: string): Promise<string> {
  await page.goto("/");
  const created = await page.request.post("/api/trpc/documents.create", {
    data: { title: "Seeded", markdown },
  });
  const { id } = (await created.json()).result.data as { id: string };
  await page.goto(`/documents/${id}`);
  await expect(page.getByTestId("document-editor")).toContainText(lastText);
  return id;
}

/** The editor's paragraphs' texts, in order. */
export function paragraphs(page: Page) {
  return page.getByTestId("document-editor").locator("p");
}

/** Sends a prompt in the given mode. */
export async function ask(page: Page, mode: "agent" | "chat", prompt: string) {
  await page.getByTestId(`assistant-mode-${mode}`).click();
  await page.getByTestId("assistant-input").fill(prompt);
  await page.getByTestId("assistant-send").click();
}

/** Waits until the server has acknowledged everything typed so far (the sync indicator says "Saved"). */
export async function waitForSave(page: Page) {
  await expect(page.getByTestId("save-status")).toHaveText("Saved", { timeout: 10_000 });
}

/** The editor's top-level blocks (paragraphs, headings, lists…), in order. */
export function blocks(page: Page) {
  return page.getByTestId("document-editor").locator(":scope > *");
}

/** Types each line as its own paragraph into the (empty) document. */
export async function typeParagraphs(page: Page, lines: string[]) {
  await page.getByTestId("document-editor").click();
  for (const [index, line] of lines.entries()) {
    if (index > 0) await page.keyboard.press("Enter");
    await page.keyboard.type(line);
  }
}

/** Waits until the assistant's status line says the run ended with `status` ("Done", "Stopped"…). */
export async function waitForRunEnd(page: Page, status = "Done", timeout = 20_000) {
  await expect(page.getByTestId("assistant-status")).toHaveText(status, { timeout });
}

/** The block ids of the editor's top-level blocks, read from the live Lexical editor state. */
export async function blockIds(page: Page): Promise<string[]> {
  return page.getByTestId("document-editor").evaluate((root) => {
    interface Serialized {
      $?: { blockId?: string };
    }
    interface LexicalRoot {
      __lexicalEditor?: { getEditorState(): { toJSON(): { root: { children: Serialized[] } } } };
    }
    const editor = (root as unknown as LexicalRoot).__lexicalEditor;
    if (!editor) throw new Error("no Lexical editor on the document element");
    return editor
      .getEditorState()
      .toJSON()
      .root.children.map((child) => child.$?.blockId ?? "");
  });
}

/**
 * Presses `keys` (an undo or redo) until `target` shows `text`. Typing is one undo step only while
 * its keystrokes come within 500 ms of each other (the undo manager's merge window); on a busy
 * machine it may have become several.
 */
export function pressUntil(page: Page, keys: string, target: Locator, text: string | string[]) {
  return expect(async () => {
    await page.keyboard.press(keys);
    await expect(target).toHaveText(text, { timeout: 500 });
  }).toPass({ timeout: 10_000 });
}

/**
 * Bob: a new person `owner` shares `documentId` with (as `role`), signed in in a browser context
 * of his own, with the document open.
 */
export async function coEditorPage(
  browser: Browser,
  owner: CoauthorClient,
  documentId: string,
  baseURL: string,
  role: "editor" | "commenter" | "viewer" = "editor",
): Promise<{ client: CoauthorClient; context: BrowserContext; page: Page }> {
  const client = await new CoauthorClient(baseURL).signIn();
  await owner.trpc("documents.share", { id: documentId, email: client.email, role });
  const context = await contextFor(browser, client, baseURL);
  const page = await context.newPage();
  await page.goto(`/documents/${documentId}`);
  return { client, context, page };
}

/**
 * Cuts `page`'s sync socket without closing it, as a train entering a tunnel does: while cut, what
 * either side sends is held, and `restore` delivers it in order. Set up before the page opens.
 */
export async function cuttableSyncLink(page: Page): Promise<{ cut: () => void; restore: () => void }> {
  let cut = false;
  const held: Array<() => void> = [];
  await page.routeWebSocket(/\/collab/, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((message) => {
      if (cut) held.push(() => server.send(message));
      else server.send(message);
    });
    server.onMessage((message) => {
      if (cut) held.push(() => socket.send(message));
      else socket.send(message);
    });
  });
  return {
    cut: () => {
      cut = true;
    },
    restore: () => {
      cut = false;
      for (const send of held.splice(0)) send();
    },
  };
}
