import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient, freshCredentials } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";

// Pages carry a script CSP with a nonce of their own, every script Next renders carries it, and
// the app runs under that policy without a single violation.

/** The directives of a CSP header, by name. */
function directives(policy: string | null): Map<string, string[]> {
  const parsed = new Map<string, string[]>();
  for (const directive of (policy ?? "").split(";")) {
    const [name, ...values] = directive.trim().split(/\s+/);
    if (name) parsed.set(name, values);
  }
  return parsed;
}

/** Fetches a page and checks its CSP and scripts; returns the nonce it carried. */
async function pageNonce(fetchPage: () => Promise<Response>, label: string): Promise<string> {
  const response = await fetchPage();
  expect(response.headers.get("content-type"), label).toContain("text/html");
  const policy = directives(response.headers.get("content-security-policy"));
  const scripts = policy.get("script-src") ?? [];
  const nonce = scripts.find((source) => source.startsWith("'nonce-"))?.slice("'nonce-".length, -1) ?? "";
  expect(nonce, label).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(scripts, label).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
  expect(policy.get("default-src"), label).toEqual(["'self'"]);
  expect(policy.get("style-src"), label).not.toContain("'unsafe-inline'");
  expect(policy.get("connect-src"), label).toEqual(
    expect.arrayContaining(["'self'", expect.stringMatching(/^ws:\/\//)]),
  );
  expect(policy.get("img-src"), label).toEqual(["'self'", "data:", "blob:"]);
  expect(policy.get("object-src"), label).toEqual(["'none'"]);
  expect(policy.get("base-uri"), label).toEqual(["'none'"]);
  expect(policy.get("form-action"), label).toEqual(["'self'"]);
  expect(policy.get("frame-ancestors"), label).toEqual(["'none'"]);
  expect(response.headers.get("x-content-type-options"), label).toBe("nosniff");

  const html = await response.text();
  const tags = html.match(/<script\b[^>]*>/g) ?? [];
  expect(tags.length, label).toBeGreaterThan(0);
  for (const tag of tags) expect(tag, label).toContain(` nonce="${nonce}"`);
  // No inline event handler attribute in any tag, and no inline style the policy would refuse.
  expect(html.match(/<[a-z][^<>]*\son[a-z]+\s*=/gi) ?? [], label).toEqual([]);
  expect(html.match(/<[a-z][^<>]*\sstyle\s*=/gi) ?? [], label).toEqual([]);
  for (const tag of html.match(/<style\b[^>]*>/g) ?? []) expect(tag, label).toContain(` nonce="${nonce}"`);
  return nonce;
}

test("every page answers with a CSP carrying a fresh nonce, and every script carries it", async ({
  baseURL,
}) => {
  const owner = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await owner.createDocument("Some text.");
  const signedOut = (path: string) => () => fetch(`${baseURL}${path}`, { redirect: "manual" });
  const signedIn = (path: string) => () => owner.fetch(path, { redirect: "manual" });
  // The document page holds the editor, the assistant and its History.
  const pages = {
    "sign-in": signedOut("/sign-in"),
    "sign-up": signedOut("/sign-up"),
    home: signedIn("/"),
    document: signedIn(`/documents/${documentId}`),
    "not found": signedIn("/no-such-page"),
  };
  const seen = new Set<string>();
  for (const [label, fetchPage] of Object.entries(pages)) {
    const first = await pageNonce(fetchPage, label);
    const second = await pageNonce(fetchPage, label);
    expect(second, label).not.toBe(first);
    seen.add(first).add(second);
  }
  expect(seen.size).toBe(Object.keys(pages).length * 2);
});

test("API answers load nothing and keep nosniff; HSTS is off without SECURE_COOKIES", async ({ baseURL }) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  for (const path of ["/api/health", "/api/trpc/documents.list"]) {
    const response = await client.fetch(path);
    expect(response.status, path).toBe(200);
    expect(directives(response.headers.get("content-security-policy")).get("default-src"), path).toEqual([
      "'none'",
    ]);
    expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
  }
  // Tool results are answered by server.mjs without Next's router (src/server/http/direct-routes.ts),
  // and their answers carry the same headers: a refusal here (the body is no tool result).
  const callback = await client.fetch("/api/llm/agent/callback", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  expect(callback.status).toBe(400);
  expect(directives(callback.headers.get("content-security-policy")).get("default-src")).toEqual(["'none'"]);
  expect(callback.headers.get("x-content-type-options")).toBe("nosniff");
  expect(callback.headers.get("x-frame-options")).toBe("DENY");
  for (const path of ["/sign-in", "/", "/api/health"]) {
    const response = await fetch(`${baseURL}${path}`, { redirect: "manual" });
    expect(response.headers.get("strict-transport-security"), path).toBeNull();
  }
});

test("with SECURE_COOKIES=true pages and redirects carry HSTS", async () => {
  const server = new AppServer({ SECURE_COOKIES: "true", LOG_LEVEL: "warn" });
  try {
    await server.start();
    for (const path of ["/sign-in", "/sign-up", "/"]) {
      const response = await fetch(`${server.url}${path}`, { redirect: "manual" });
      expect(response.status, path).toBeLessThan(400);
      expect(response.headers.get("strict-transport-security"), path).toBe(
        "max-age=63072000; includeSubDomains",
      );
    }
  } finally {
    await server.dispose();
  }
});

test.describe("in the browser", () => {
  test.use({ signedIn: false });

  test("no CSP violation while a writer signs up, writes, runs the agent and opens History", async ({
    context,
    page,
  }) => {
    const violations: string[] = [];
    // On the context: the second tab (a co-editor's view of the document) records too.
    await context.exposeFunction("recordCspViolation", (violation: string) => {
      violations.push(violation);
    });
    // Runs before any page script, in every document the tabs open.
    await context.addInitScript(() => {
      const record = (window as unknown as { recordCspViolation: (violation: string) => void })
        .recordCspViolation;
      document.addEventListener("securitypolicyviolation", (event) => {
        record(
          `${event.documentURI}: ${event.effectiveDirective} blocked ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber} (${event.sample})`,
        );
      });
    });

    const account = freshCredentials("csp");
    await page.goto("/sign-up");
    for (const [label, value] of Object.entries({
      Name: account.name,
      Email: account.email,
      Password: account.password,
    }))
      await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.getByTestId("new-document").click();
    await page.waitForURL(/\/documents\/[^/]+$/);
    const editor = page.getByTestId("document-editor");
    await expect(editor).toHaveAttribute("contenteditable", "true", { timeout: 15_000 });
    await editor.click();
    await page.keyboard.type("Typed under a strict policy.");
    // Saved: the sync socket (/collab) carried the typing to the server.
    await expect(page.getByTestId("save-status")).toHaveText("Saved", { timeout: 10_000 });

    // A second copy of the document shows this one's cursor and presence, and the agent's edits.
    const coEditor = await context.newPage();
    await coEditor.goto(page.url());
    await expect(coEditor.getByTestId("document-editor").locator("p").first()).toHaveText(
      "Typed under a strict policy.",
    );

    const toggle = page.getByTestId("assistant-toggle");
    if ((await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await page.getByTestId("assistant-mode-agent").click();
    await page.getByTestId("assistant-input").fill('append "Agent line"');
    await page.getByTestId("assistant-send").click();
    // The run's frames came over its SSE stream, its edit through the editor tools.
    await expect(page.getByTestId("assistant-status")).toHaveText("Done", { timeout: 20_000 });
    await expect(editor.locator("p").last()).toHaveText("Agent line");
    await expect(coEditor.getByTestId("document-editor").locator("p").last()).toHaveText("Agent line");
    await coEditor.close();

    await page.getByTestId("assistant-history-toggle").click();
    const run = page.getByTestId("run-history-item");
    await expect(run).toHaveCount(1);
    await run.getByRole("button", { expanded: false }).click();
    await expect(page.getByTestId("run-log-line").last()).toHaveAttribute("data-type", "finish");

    // A reload opens the document from IndexedDB and the server again.
    await page.reload();
    await expect(editor.locator("p").first()).toHaveText("Typed under a strict policy.");
    await expect(page.getByTestId("save-status")).toHaveText("Saved", { timeout: 10_000 });
    // A mistyped address: the 404 page runs under the same policy.
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    expect(violations).toEqual([]);

    // The recorder itself works: a load the policy forbids is reported.
    await page.evaluate(() => {
      const image = new Image();
      image.src = "https://blocked.example/pixel.png";
    });
    await expect
      .poll(() => violations)
      .toEqual([expect.stringContaining("img-src blocked https://blocked.example")]);
  });
});
