import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { $getRoot, type LexicalEditor } from "lexical";
import type { Nodes, Root } from "mdast";

// Test-only: what "keeps every character of text" means for the Markdown suites.

/** Every character of a Markdown document's text, in order: code, text, alt text and raw HTML. */
export function sourceText(root: Root): string {
  let out = "";
  const visit = (node: Nodes): void => {
    if (node.type === "text" || node.type === "inlineCode" || node.type === "code" || node.type === "html")
      out += node.value;
    else if (node.type === "image" || node.type === "imageReference") out += node.alt ?? "";
    if ("children" in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(root);
  return out;
}

const withoutSpace = (text: string) => text.replace(/\s+/g, "");

/** Whether `inner`'s characters all appear in `outer`, in order (whitespace aside). */
export function keepsText(outer: string, inner: string): boolean {
  const a = withoutSpace(outer);
  const b = withoutSpace(inner);
  let i = 0;
  for (let k = 0; k < a.length && i < b.length; k++) if (a[k] === b[i]) i++;
  return i === b.length;
}

export function documentText(editor: LexicalEditor): string {
  return editor.read(() => $getRoot().getTextContent());
}

/**
 * Real documents nobody here wrote: every Markdown file of the packages installed in the
 * workspace's node_modules (READMEs, changelogs, docs), each distinct text once, in path order, up
 * to MARKDOWN_CORPUS_LIMIT files (default 700: which files come first changes with what is
 * installed, and the suite stays around a minute on a busy machine) of at most 256 KiB each.
 */
export const corpusRoot = fileURLToPath(new URL("../../../node_modules/.pnpm", import.meta.url));
const limit = Number(process.env.MARKDOWN_CORPUS_LIMIT ?? 700);
const MAX_BYTES = 256 * 1024;

function markdownFiles(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !entry.isSymbolicLink()) markdownFiles(path, out);
    else if (entry.isFile() && /\.(md|markdown)$/i.test(entry.name)) out.push(path);
  }
  return out;
}

export function corpus(max = limit): { path: string; markdown: string }[] {
  const seen = new Set<string>();
  const documents: { path: string; markdown: string }[] = [];
  for (const path of markdownFiles(corpusRoot, []).sort()) {
    const size = statSync(path).size;
    if (size === 0 || size > MAX_BYTES) continue;
    const markdown = readFileSync(path, "utf8");
    const hash = createHash("sha256").update(markdown).digest("hex");
    if (seen.has(hash)) continue;
    seen.add(hash);
    documents.push({ path: relative(corpusRoot, path), markdown });
    if (documents.length >= max) break;
  }
  return documents;
}
