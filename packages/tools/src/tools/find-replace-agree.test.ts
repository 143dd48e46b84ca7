import { $getRoot, type LexicalEditor } from "lexical";
import { describe, expect, it } from "vitest";
import { createDocumentEditor } from "../document-editor.ts";
import { runEditorToolNow } from "../editor-tools.ts";
import { corpus, corpusRoot } from "../markdown-checks.ts";
import { $forEachTextUnit, $unitText } from "./text-units.ts";

/**
 * findText and replaceText agree on real documents nobody here wrote (the installed packages'
 * READMEs and docs): for each document's most frequent word and for phrases that straddle a
 * formatting change (half bold, a link's edge, inline code), replaceText replaces exactly as many
 * occurrences, in exactly the blocks, that findText finds. Before they shared their text units, 10
 * of 150 npm READMEs gave different counts (in one: 131 found, 226 replaced).
 */

const DOCUMENTS = 80;

/** Searches worth trying in `editor`: its most frequent word and up to three phrases across formatting. */
function searchesOf(editor: LexicalEditor): string[] {
  return editor.read(() => {
    const counts = new Map<string, number>();
    for (const word of $getRoot()
      .getTextContent()
      .match(/\p{L}{4,}/gu) ?? [])
      counts.set(word, (counts.get(word) ?? 0) + 1);
    const frequent = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    const straddling: string[] = [];
    $forEachTextUnit((unit) => {
      const { text, segments } = $unitText(unit);
      for (let i = 1; i < segments.length && straddling.length < 3; i++) {
        const boundary = segments[i]?.start ?? 0;
        if (segments[i - 1]?.end !== boundary) continue;
        const phrase = text.slice(Math.max(0, boundary - 4), boundary + 4);
        if (phrase.length === 8 && !phrase.includes("\n")) straddling.push(phrase);
      }
      return straddling.length < 3;
    });
    return [...(frequent === undefined ? [] : [frequent]), ...straddling];
  });
}

type Found = { count: number; blockIds: string[] };

function found(editor: LexicalEditor, query: string): Found | null {
  const output = runEditorToolNow(editor, "findText", { query, maxResults: 500 });
  if (!output.ok || !("matches" in output) || output.truncated) return null;
  return {
    count: output.matches.length,
    blockIds: [...new Set(output.matches.map((match) => match.blockId))],
  };
}

function replaced(editor: LexicalEditor, search: string): Found {
  const output = runEditorToolNow(editor, "replaceText", { search, replace: "\u2042" });
  if (!output.ok || !("replacements" in output)) return { count: 0, blockIds: [] };
  return { count: output.replacements, blockIds: output.blockIds };
}

describe("findText and replaceText on real documents", () => {
  it("replace exactly what is found, also across formatting", { timeout: 180_000 }, () => {
    const documents = corpus(DOCUMENTS);
    expect(documents.length, `no Markdown files found under ${corpusRoot}`).toBe(DOCUMENTS);
    const disagreements: string[] = [];
    let straddlingTried = 0;
    for (const { path, markdown } of documents) {
      const reader = createDocumentEditor({ markdown });
      const searches = searchesOf(reader);
      straddlingTried += Math.max(0, searches.length - 1);
      for (const search of searches) {
        // Each search on a fresh copy (an earlier replacement must not change what the next finds).
        const editor = createDocumentEditor({ markdown });
        const wanted = found(editor, search);
        if (wanted === null) continue;
        const got = replaced(editor, search);
        if (got.count !== wanted.count || got.blockIds.join() !== wanted.blockIds.join())
          disagreements.push(`${path} "${search}": found ${wanted.count}, replaced ${got.count}`);
      }
    }
    // The straddling phrases are the point: the corpus must offer plenty of them.
    expect(straddlingTried).toBeGreaterThan(100);
    expect(disagreements).toEqual([]);
  });
});
