// Invitations, email verification and password reset, on a server of the test's own: the links
// arrive as `[mail]` lines in its log (no SMTP_URL), which the tests read (tests/lib/mail-log.ts).
import type { Browser, BrowserContext } from "@playwright/test";
import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient, freshCredentials } from "../lib/coauthor-client.ts";
import { waitForMailLink } from "../lib/mail-log.ts";
import { expect, test } from "../lib/test.ts";
import { expectNoAxeViolations } from "./accessibility-helpers.ts";

test.use({ signedIn: false });

let server: AppServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = new AppServer();
  await server.start();
});

test.afterAll(async () => {
  await server?.dispose();
});

/** A browser context signed in as `client` on the test's server. */
async function contextOf(browser: Browser, client: CoauthorClient): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.url });
  await context.addCookies(
    client.cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: server.url, httpOnly: true };
    }),
  );
  return context;
}

test("an invited email gets the document once it is verified, and an unverified one gets nothing", async ({
  browser,
}) => {
  const owner = await new CoauthorClient(server.url).signIn();
  const documentId = await owner.createDocument("Invited words.", "Invitation");
  const invitee = freshCredentials("invitee");
  const squatter = freshCredentials("squatter");

  // The owner invites an email nobody has an account for, from the share dialog.
  const ownerContext = await contextOf(browser, owner);
  const ownerPage = await ownerContext.newPage();
  await ownerPage.goto(`/documents/${documentId}`);
  await ownerPage.getByRole("button", { name: "Share" }).click();
  const dialog = ownerPage.getByRole("dialog", { name: "Share document" });
  await dialog.getByLabel("Email to share with").fill(invitee.email);
  await dialog.getByLabel("Role", { exact: true }).selectOption("editor");
  await dialog.getByRole("button", { name: "Share", exact: true }).click();
  await expect(dialog.getByTestId("share-invitation")).toContainText(invitee.email);
  await expect(dialog.getByRole("status").first()).toContainText(`Invited ${invitee.email}`);
  await expectNoAxeViolations(ownerPage, "share dialog with a pending invitation");
  await owner.trpc("documents.share", { id: documentId, email: squatter.email, role: "editor" });

  // The invitee signs up: nothing until the email is verified.
  const inviteeContext = await browser.newContext({ baseURL: server.url });
  const page = await inviteeContext.newPage();
  const beforeSignUp = server.log.length;
  await page.goto("/sign-up");
  await page.getByLabel("Name", { exact: true }).fill(invitee.name);
  await page.getByLabel("Email", { exact: true }).fill(invitee.email);
  await page.getByLabel("Password", { exact: true }).fill(invitee.password);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await expect(page.getByTestId("account-menu")).toContainText(invitee.email);
  const getDocument = () =>
    page.request.get(
      `/api/trpc/documents.get?input=${encodeURIComponent(JSON.stringify({ id: documentId }))}`,
    );
  expect((await getDocument()).status()).toBe(404);

  // The link from the log verifies the email and turns the invitation into an editor's membership.
  const link = await waitForMailLink(server, invitee.email, "Verify your email", beforeSignUp);
  await page.goto(link);
  await expect(page.getByTestId("account-menu")).toBeVisible();
  await expect(page.getByRole("button", { name: "Verify email" })).toHaveCount(0);
  await page.goto(`/documents/${documentId}`);
  const editor = page.getByTestId("document-editor");
  await expect(editor).toContainText("Invited words.");
  await expect(editor).toHaveAttribute("contenteditable", "true");
  expect((await (await getDocument()).json()).result.data).toMatchObject({ role: "editor" });

  // The owner sees the invitee as a member now; the squatter's invitation is still pending.
  await ownerPage.reload();
  await ownerPage.getByRole("button", { name: "Share" }).click();
  await expect(ownerPage.getByTestId("share-member")).toHaveCount(2);
  await expect(ownerPage.getByTestId("share-member").nth(1)).toContainText(invitee.email);
  await expect(ownerPage.getByTestId("share-invitation")).toHaveText([new RegExp(squatter.email)]);

  // Someone registers the other invited address but never verifies it: no access, even at sign-in.
  const unverified = await new CoauthorClient(server.url).signUp(squatter, { verified: false });
  expect(await unverified.trpcCall("documents.get", { id: documentId }, "query")).toMatchObject({
    status: 404,
  });
  const again = await new CoauthorClient(server.url).signInWith(squatter);
  expect(await again.trpcCall("documents.get", { id: documentId }, "query")).toMatchObject({ status: 404 });
  const listed = await again.trpc<{ items: { id: string }[] }>("documents.list", undefined, "query");
  expect(listed.items.map((document) => document.id)).not.toContain(documentId);
  expect(await owner.trpc("documents.invitations", { id: documentId }, "query")).toEqual([
    expect.objectContaining({ email: squatter.email, role: "editor" }),
  ]);

  // The owner revokes it from the dialog, and copies the document's link.
  await ownerPage.getByRole("button", { name: `Revoke the invitation of ${squatter.email}` }).click();
  await expect(ownerPage.getByTestId("share-invitation")).toHaveCount(0);
  expect(await owner.trpc("documents.invitations", { id: documentId }, "query")).toEqual([]);
  await ownerContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  await ownerPage.getByRole("button", { name: "Copy link" }).click();
  await expect(ownerPage.getByTestId("copy-link-status")).toHaveText("Link copied");
  expect(await ownerPage.evaluate(() => navigator.clipboard.readText())).toBe(
    `${server.url}/documents/${documentId}`,
  );
  await ownerContext.close();
  await inviteeContext.close();
});

test("an account registered but unverified before the share gets nothing until it verifies", async () => {
  const owner = await new CoauthorClient(server.url).signIn();
  const documentId = await owner.createDocument("Not for squatters.", "Squatted");
  // Someone registers the address first and does not (or cannot) open its verification link.
  const early = await new CoauthorClient(server.url).signUp(freshCredentials("early"), { verified: false });

  // Sharing with that address answers exactly as for an address with no account: an invitation.
  const shared = await owner.trpc<{ invited: boolean }>("documents.share", {
    id: documentId,
    email: early.email,
    role: "editor",
  });
  expect(shared).toMatchObject({ invited: true, email: early.email, role: "editor" });
  expect(await early.trpcCall("documents.get", { id: documentId }, "query")).toMatchObject({ status: 404 });
  const listed = await early.trpc<{ items: { id: string }[] }>("documents.list", undefined, "query");
  expect(listed.items.map((document) => document.id)).not.toContain(documentId);
  const members = await owner.trpc<{ userId: string }[]>("documents.members", { id: documentId }, "query");
  expect(members.map((member) => member.userId)).not.toContain(early.userId);
  expect(await owner.trpc("documents.invitations", { id: documentId }, "query")).toEqual([
    expect.objectContaining({ email: early.email, role: "editor" }),
  ]);

  // Whoever controls the address opens the link: the invitation becomes an editor's membership.
  await early.verifyEmail();
  expect(await early.trpc("documents.get", { id: documentId }, "query")).toMatchObject({ role: "editor" });
  const after = await owner.trpc<{ userId: string; role: string }[]>(
    "documents.members",
    { id: documentId },
    "query",
  );
  expect(after).toContainEqual(expect.objectContaining({ userId: early.userId, role: "editor" }));
  expect(await owner.trpc("documents.invitations", { id: documentId }, "query")).toEqual([]);
});

test("the owner of a squatted address takes it back: reset the password, then verify", async ({
  browser,
}) => {
  const owner = await new CoauthorClient(server.url).signIn();
  const documentId = await owner.createDocument("For the mailbox's owner.", "Taken back");
  const address = freshCredentials("squatted");
  const squatter = await new CoauthorClient(server.url).signUp(address, { verified: false });
  await owner.trpc("documents.share", { id: documentId, email: address.email, role: "viewer" });

  // The mailbox's owner: "Forgot your password?" mails them a link; the new password signs the squatter out.
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await page.goto("/forgot-password");
  const beforeReset = server.log.length;
  await page.getByLabel("Email", { exact: true }).fill(address.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await page.goto(await waitForMailLink(server, address.email, "Reset your Coauthor password", beforeReset));
  const newPassword = `mine-${crypto.randomUUID()}`;
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByTestId("password-changed")).toBeVisible();
  expect(await squatter.trpcCall("documents.list", undefined, "query")).toMatchObject({ status: 401 });

  // Signed in, still unverified: nothing yet. "Verify email" mails the link that gives the document.
  await page.goto("/sign-in");
  await page.getByLabel("Email", { exact: true }).fill(address.email);
  await page.getByLabel("Password", { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("account-menu")).toContainText(address.email);
  const input = encodeURIComponent(JSON.stringify({ id: documentId }));
  expect((await page.request.get(`/api/trpc/documents.get?input=${input}`)).status()).toBe(404);
  const beforeVerify = server.log.length;
  await page.getByRole("button", { name: "Verify email" }).click();
  await page.goto(await waitForMailLink(server, address.email, "Verify your email", beforeVerify));
  await page.goto(`/documents/${documentId}`);
  await expect(page.getByTestId("document-editor")).toContainText("For the mailbox's owner.");
  await expect(page.getByTestId("role-badge")).toHaveText("View only");
  await context.close();
});

test("a forgotten password is reset with the link from the log", async ({ browser }) => {
  const account = freshCredentials("reset");
  const oldSession = await new CoauthorClient(server.url).signUp(account);
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();

  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expectNoAxeViolations(page, "forgot-password page");
  const beforeRequest = server.log.length;
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByTestId("reset-requested")).toBeVisible();
  const link = await waitForMailLink(server, account.email, "Reset your Coauthor password", beforeRequest);

  await page.goto(link);
  await expect(page).toHaveURL(/\/reset-password\?token=/);
  await expectNoAxeViolations(page, "reset-password page");
  const newPassword = `new-${crypto.randomUUID()}`;
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByTestId("password-changed")).toBeVisible();

  // The old password no longer works, the old session is over, the new password signs in.
  const signIn = (password: string) =>
    fetch(`${server.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ email: account.email, password }),
    });
  expect((await signIn(account.password)).status).toBe(401);
  expect(await oldSession.trpcCall("documents.list", undefined, "query")).toMatchObject({ status: 401 });
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("account-menu")).toContainText(account.email);

  // A reset link works once.
  await page.goto(link);
  await expect(page.locator("main").getByRole("alert")).toHaveText(
    "This reset link is invalid or has expired.",
  );
  await context.close();
});
