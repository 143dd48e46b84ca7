import { bearer } from "../lib/coauthor-cli.ts";
import { expect, test } from "../lib/test.ts";
import { expectNoAxeViolations, tabTo } from "./accessibility-helpers.ts";

// The account page's access tokens, by keyboard: make one (shown once), see it listed by its first
// characters, revoke it; the page has no axe violation in any of these states.

test("Access tokens: create one by keyboard, it is shown once, listed by its prefix, and Revoke ends it", async ({
  page,
  baseURL,
}) => {
  await page.goto("/");
  const accountLink = page.getByRole("link", { name: "Account" });
  await tabTo(page, accountLink);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Access tokens" })).toBeVisible();
  await expect(page.getByText("No access tokens.")).toBeVisible();
  await expectNoAxeViolations(page, "the account page with no token");

  const name = page.getByRole("textbox", { name: "Name" });
  await tabTo(page, name);
  await page.keyboard.type("Release script");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("combobox", { name: "Expires in" })).toBeFocused();
  await page.getByRole("combobox", { name: "Expires in" }).selectOption("7");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Create token" })).toBeFocused();
  await page.keyboard.press("Enter");

  const created = page.getByTestId("new-access-token");
  await expect(created).toBeFocused();
  const token = (await page.getByTestId("new-access-token-value").textContent()) ?? "";
  expect(token).toMatch(/^coa_[A-Za-z0-9_-]{43}$/);
  const row = page.getByTestId("access-token-list").getByRole("row", { name: /Release script/ });
  await expect(row).toContainText(`${token.slice(0, 12)}…`);
  await expect(row).toContainText("Never");
  await expectNoAxeViolations(page, "the token shown once");
  await page.getByRole("button", { name: "Copy token" }).click();
  await expect(created.getByRole("status")).toHaveText(/Token copied|Copy the token by hand/);

  // Shown once: after Done, and on the page opened again, only its first characters remain.
  await page.getByRole("button", { name: "Done" }).click();
  await expect(created).toHaveCount(0);
  await page.reload();
  await expect(row).toContainText(`${token.slice(0, 12)}…`);
  expect(await page.content()).not.toContain(token);

  const works = await fetch(`${baseURL}/api/llm/agent/no-such-run`, { headers: bearer(token) });
  expect(works.status).toBe(404);
  const revoke = page.getByRole("button", { name: "Revoke Release script" });
  await tabTo(page, revoke);
  await page.keyboard.press("Enter");
  await expect(page.getByText("No access tokens.")).toBeVisible();
  await expect(page.getByText("Revoked “Release script”")).toBeVisible();
  await expectNoAxeViolations(page, "the account page after revoking");
  const refused = await fetch(`${baseURL}/api/llm/agent/no-such-run`, { headers: bearer(token) });
  expect(refused.status).toBe(401);
});
