import { describe, expect, it } from "vitest";
import { DocumentWorkTooSlow, runDocumentWork } from "./worker-pool";

// The pool runs the conversions of @coauthor/tools/document-work in worker threads (their own
// tests are there): here, that a task comes back as its plain value, and that one past its budget
// is stopped and refused while the pool goes on serving.

/** Markdown that takes the conversion seconds: 256 emphasis markers in each of 2,000 paragraphs. */
const slowMarkdown = Array(2_000).fill(Array(128).fill("*a*").join(" ")).join("\n\n");

describe("the document worker pool", () => {
  it("runs a task in a worker thread and answers its value", async () => {
    const imported = await runDocumentWork("importMarkdownDocument", "# Title\n\nText.", 60_000);
    expect(imported).toMatchObject({ ok: true, plainText: "Title\n\nText." });
    if (!imported.ok) return;
    expect(await runDocumentWork("exportStateMarkdown", imported.state, 60_000)).toEqual({
      ok: true,
      markdown: "# Title\n\nText.",
    });
  }, 60_000);

  it("stops a task past its budget with DocumentWorkTooSlow, and serves the next one", async () => {
    const started = performance.now();
    await expect(runDocumentWork("importMarkdownDocument", slowMarkdown, 200)).rejects.toBeInstanceOf(
      DocumentWorkTooSlow,
    );
    // Stopped at its budget, not when the conversion would have ended (many seconds).
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(await runDocumentWork("stateLoadProblem", new Uint8Array([0xff, 0x13]), 60_000)).toEqual(
      expect.any(String),
    );
  }, 90_000);
});
