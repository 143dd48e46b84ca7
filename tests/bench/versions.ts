// Versions benchmark, headless (no server): what one version costs in storage. A version is the
// document's full Yjs state (`encodeStateAsUpdate`, docs/versions.md), so its size is the state's:
// measured for a typical 50-paragraph document and a 10,000-block one, fresh and after a stretch of
// editing (Yjs keeps what deleted content leaves behind). Figures, not assertions.
import { gzipSync } from "node:zlib";
import { bindDocumentEditor, yjsUpdateFromMarkdown } from "@coauthor/tools";
import { $getRoot, $isElementNode, $isTextNode } from "lexical";
import * as Y from "yjs";
import { round } from "./stats.ts";

/** Edits made to each document before the second figure: a word typed, a word deleted, each. */
const EDITS = 500;

export interface VersionBenchRow {
  blocks: number;
  markdownKB: number;
  /** One version of the fresh document: its Yjs state, raw and gzipped (PostgreSQL's TOAST compresses large values). */
  versionKB: number;
  gzipKB: number;
  /** One version after EDITS edits spread over the document. */
  editedKB: number;
}

/** A paragraph of about 40 words, as a report's body text reads. */
function paragraph(i: number): string {
  return `Paragraph ${i}: the quarterly review found that the team shipped the planned features on time, that support tickets fell by a fifth after the new onboarding guide, and that the next quarter should focus on the import pipeline, the search index and the mobile layout the writers asked for.`;
}

function stateBytes(doc: Y.Doc): number {
  return Y.encodeStateAsUpdate(doc).byteLength;
}

function measure(blocks: number): VersionBenchRow {
  const markdown = Array.from({ length: blocks }, (_, i) => paragraph(i)).join("\n\n");
  const bound = bindDocumentEditor(yjsUpdateFromMarkdown(markdown));
  const fresh = Y.encodeStateAsUpdate(bound.doc);
  for (let edit = 0; edit < EDITS; edit++) {
    bound.editor.update(
      () => {
        const block = $getRoot().getChildAtIndex((edit * 7919) % blocks);
        const text = $isElementNode(block) ? block.getFirstChild() : null;
        if (!$isTextNode(text)) return;
        const content = text.getTextContent();
        // Type a word at the end, delete the first one.
        text.setTextContent(`${content.slice(content.indexOf(" ") + 1)} revised`);
      },
      { discrete: true },
    );
  }
  const row = {
    blocks,
    markdownKB: round(Buffer.byteLength(markdown) / 1024),
    versionKB: round(fresh.byteLength / 1024),
    gzipKB: round(gzipSync(fresh).byteLength / 1024),
    editedKB: round(stateBytes(bound.doc) / 1024),
  };
  bound.dispose();
  return row;
}

/** The storage of one version, per document size (blocks). */
export function benchVersions(sizes: number[]): VersionBenchRow[] {
  return sizes.map(measure);
}

export function printVersions(rows: VersionBenchRow[]): void {
  console.log(
    `\nVersions (headless): the storage of one version (the full Yjs state), fresh and after ${EDITS} edits`,
  );
  console.table(
    rows.map((row) => ({
      blocks: row.blocks,
      "Markdown KB": row.markdownKB,
      "version KB (gzip)": `${row.versionKB} (${row.gzipKB})`,
      [`after ${EDITS} edits KB`]: row.editedKB,
    })),
  );
}
