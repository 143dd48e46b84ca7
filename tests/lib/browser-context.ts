import type { Browser, BrowserContext } from "@playwright/test";
import type { CoauthorClient } from "./coauthor-client.ts";

/** A browser context signed in as `client` (its own cookies: a second person, or a second device). */
export async function contextFor(
  browser: Browser,
  client: CoauthorClient,
  baseURL: string,
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL });
  await context.addCookies(
    client.cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: baseURL, httpOnly: true };
    }),
  );
  return context;
}
