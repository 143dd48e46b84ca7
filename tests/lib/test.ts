// Every spec imports `test` and `expect` from here, so fixtures shared by all
// suites live in one place: the default `page` (and `context`) is already
// signed in as a fresh user, whose headless client is the `account` fixture.
import { test as base } from "@playwright/test";
import { CoauthorClient } from "./coauthor-client.ts";

export { expect, type Page } from "@playwright/test";

interface AccountFixtures {
  /** Sign the browser context in (default true); `test.use({ signedIn: false })` starts signed out. */
  signedIn: boolean;
  /** A fresh user; the browser context is signed in as them (same session) unless `signedIn` is false. */
  account: CoauthorClient;
}

/** Playwright's `test` with a browser that is signed in as a fresh user. */
export const test = base.extend<AccountFixtures>({
  signedIn: [true, { option: true }],
  account: async ({ baseURL }, use) => {
    if (!baseURL) throw new Error("baseURL is not configured");
    await use(await new CoauthorClient(baseURL).signIn());
  },
  context: async ({ context, signedIn, account, baseURL }, use) => {
    if (signedIn && baseURL) {
      const cookies = account.cookie.split("; ").map((pair) => {
        const at = pair.indexOf("=");
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: baseURL };
      });
      await context.addCookies(cookies.map((c) => ({ ...c, httpOnly: true, sameSite: "Lax" as const })));
    }
    await use(context);
  },
});
