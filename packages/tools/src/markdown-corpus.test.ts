import { describe, expect, it } from "vitest";
import { createDocumentEditor } from "./document-editor.ts";
import { exportMarkdown } from "./markdown.ts";
import { corpus, corpusRoot, documentText, keepsText, sourceText } from "./markdown-checks.ts";
import { parseMarkdown } from "./markdown-syntax.ts";

/**
 * Real documents nobody here wrote (see `corpus`): each one loads, exports, and reloads to a fixed
 * point without losing text; the load and export times are printed.
 */

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

describe("Markdown on real documents", () => {
  // Hundreds of real documents, each loaded twice and exported twice: minutes on a busy machine.
  it("loads, exports and reloads every installed package's Markdown to a fixed point, keeping its text", {
    timeout: 180_000,
  }, () => {
    const documents = corpus();
    expect(documents.length, `no Markdown files found under ${corpusRoot}`).toBeGreaterThan(500);
    const loads: number[] = [];
    const exports: number[] = [];
    const failures: string[] = [];
    for (const { path, markdown } of documents) {
      try {
        let start = performance.now();
        const first = createDocumentEditor({ markdown });
        loads.push(performance.now() - start);
        start = performance.now();
        const once = exportMarkdown(first);
        exports.push(performance.now() - start);
        const second = createDocumentEditor({ markdown: once });
        const problems = [
          exportMarkdown(second) === once ? null : "not a fixed point",
          keepsText(documentText(first), sourceText(parseMarkdown(markdown))) ? null : "text lost on load",
          documentText(second) === documentText(first) ? null : "text changed on the round trip",
        ].filter((problem) => problem !== null);
        if (problems.length > 0) failures.push(`${path}: ${problems.join(", ")}`);
      } catch (error) {
        failures.push(`${path}: threw ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const bytes = documents.reduce((sum, document) => sum + document.markdown.length, 0);
    console.log(
      `Markdown corpus: ${documents.length} documents (${(bytes / 1024 / 1024).toFixed(1)} MiB), ` +
        `${documents.length - failures.length} fixed points keeping their text; ` +
        `load p50 ${percentile(loads, 50).toFixed(1)} ms, p99 ${percentile(loads, 99).toFixed(1)} ms; ` +
        `export p50 ${percentile(exports, 50).toFixed(1)} ms, p99 ${percentile(exports, 99).toFixed(1)} ms`,
    );
    expect(failures).toEqual([]);
  });
});
