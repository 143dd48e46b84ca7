import { CoauthorClient, freshCredentials } from "../lib/coauthor-client.ts";
import { expect, type Page, test } from "../lib/test.ts";

test.describe("signed out", () => {
  test.use({ signedIn: false });

  async function fillAndSubmit(page: Page, fields: Record<string, string>, button: "Sign up" | "Sign in") {
    for (const [label, value] of Object.entries(fields))
      await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole("button", { name: button, exact: true }).click();
  }

  test("a writer signs up, signs out and signs in again through the pages", async ({ page }) => {
    const account = freshCredentials("ui");
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in(\?|$)/);
    await page.getByRole("link", { name: "Sign up" }).click();
    await expect(page).toHaveURL(/\/sign-up/);
    await fillAndSubmit(
      page,
      { Name: account.name, Email: account.email, Password: account.password },
      "Sign up",
    );
    await expect(page.getByTestId("account-menu")).toContainText(account.email);
    await expect(page.getByTestId("new-document")).toBeVisible();

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    // Signed out means signed out: the home page sends the browser back to sign in, the API answers 401.
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in/);
    expect((await page.request.get("/api/trpc/documents.list")).status()).toBe(401);

    await fillAndSubmit(page, { Email: account.email, Password: "wrong-password" }, "Sign in");
    await expect(page.getByRole("alert")).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in/);
    await fillAndSubmit(page, { Email: account.email, Password: account.password }, "Sign in");
    await expect(page.getByTestId("account-menu")).toContainText(account.email);
  });

  test("a document link while signed out returns there after signing in", async ({ page, baseURL }) => {
    const owner = await new CoauthorClient(baseURL ?? "").signIn();
    const documentId = await owner.createDocument("Come back here.");
    await page.goto(`/documents/${documentId}`);
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await page.getByLabel("Email", { exact: true }).fill(owner.email);
    await page.getByLabel("Password", { exact: true }).fill(owner.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/documents/${documentId}$`));
    await expect(page.getByTestId("document-editor")).toContainText("Come back here.");
  });
});

test("sign out everywhere ends the user's other sessions too", async ({ page, account, baseURL }) => {
  const otherDevice = await new CoauthorClient(baseURL ?? "").signInWith(account);
  expect((await otherDevice.trpcCall("documents.list", undefined, "query")).status).toBe(200);
  await page.goto("/");
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  expect(await otherDevice.trpcCall("documents.list", undefined, "query")).toMatchObject({
    status: 401,
    code: "UNAUTHORIZED",
  });
  expect(await account.trpcCall("documents.list", undefined, "query")).toMatchObject({ status: 401 });
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("a viewer sees the shared document read-only, and the owner shares from the dialog", async ({
  page,
  account,
  baseURL,
}) => {
  const owner = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await owner.createDocument("Shared words.", "Shared with you");
  await owner.trpc("documents.share", { id: documentId, email: account.email, role: "viewer" });
  await page.goto("/");
  await expect(page.getByTestId("document-role")).toHaveText("Shared · viewer");
  await page.getByRole("link", { name: "Shared with you" }).click();
  const editor = page.getByTestId("document-editor");
  await expect(editor).toContainText("Shared words.");
  await expect(editor).toHaveAttribute("contenteditable", "false");
  await expect(page.getByTestId("role-badge")).toHaveText("View only");
  await expect(page.getByRole("button", { name: "Share" })).toHaveCount(0);
  // A viewer may ask questions (chat) but is not offered the agent.
  await expect(page.getByTestId("assistant-mode-chat")).toBeVisible();
  await expect(page.getByTestId("assistant-mode-agent")).toHaveCount(0);

  // The viewer's own document: the owner's share dialog adds the other user as an editor.
  await page.goto("/");
  await page.getByTestId("new-document").click();
  await page.waitForURL(/\/documents\/[^/]+$/);
  const ownId = page.url().split("/").at(-1) ?? "";
  await page.getByRole("button", { name: "Share" }).click();
  await page.getByLabel("Email to share with").fill(owner.email);
  await page.getByLabel("Role", { exact: true }).selectOption("editor");
  await page.getByRole("button", { name: "Share", exact: true }).last().click();
  await expect(page.getByTestId("share-member")).toHaveCount(2);
  expect(await owner.trpc("documents.get", { id: ownId }, "query")).toMatchObject({ role: "editor" });
});
