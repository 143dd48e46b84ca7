import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createDocumentEditor } from "./document-editor.ts";
import { exportMarkdown } from "./markdown.ts";
import { documentText, keepsText, sourceText } from "./markdown-checks.ts";
import { parseMarkdown } from "./markdown-parse.ts";

/**
 * Real documents nobody here wrote: every Markdown file of the packages installed in the
 * workspace's node_modules (READMEs, changelogs, docs), each distinct text once, up to
 * MARKDOWN_CORPUS_LIMIT files (default 1,000, to keep the suite under a minute) of at most 256 KiB each. Each one loads, exports, and
 * reloads to a fixed point without losing text; the load and export times are printed.
 */

const root = fileURLToPath(new URL("../../../node_modules/.pnpm", import.meta.url));
const limit = Number(process.env.MARKDOWN_CORPUS_LIMIT ?? 1_000);
const MAX_BYTES = 256 * 1024;

function markdownFiles(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !entry.isSymbolicLink()) markdownFiles(path, out);
    else if (entry.isFile() && /\.(md|markdown)$/i.test(entry.name)) out.push(path);
  }
  return out;
}

function corpus(): { path: string; markdown: string }[] {
  const seen = new Set<string>();
  const documents: { path: string; markdown: string }[] = [];
  for (const path of markdownFiles(root, []).sort()) {
    const size = statSync(path).size;
    if (size === 0 || size > MAX_BYTES) continue;
    const markdown = readFileSync(path, "utf8");
    const hash = createHash("sha256").update(markdown).digest("hex");
    if (seen.has(hash)) continue;
    seen.add(hash);
    documents.push({ path: relative(root, path), markdown });
    if (documents.length >= limit) break;
  }
  return documents;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

describe("Markdown on real documents", () => {
  it("loads, exports and reloads every installed package's Markdown to a fixed point, keeping its text", () => {
    const documents = corpus();
    expect(documents.length, `no Markdown files found under ${root}`).toBeGreaterThan(500);
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
