// Versions benchmark. Headless (no server): what one version costs in storage and time. A version
// is the document's full Yjs state (`encodeStateAsUpdate`, docs/versions.md), so its size is the
// state's: measured for a typical 50-paragraph document and a 10,000-block one, fresh and after a
// stretch of editing (Yjs keeps what deleted content leaves behind); with the time to capture one
// and to restore the fresh version onto the edited document (`restoreContent`, the server's part
// of a restore). Through the server: the Versions view's list of a document with 1,000 versions.
// Figures, not assertions.
import { gzipSync } from "node:zlib";
import {
  bindDocumentEditor,
  restoreContent,
  stateFromYjsUpdate,
  yjsUpdateFromMarkdown,
} from "@coauthor/tools";
import { $getRoot, $isElementNode, $isTextNode } from "lexical";
import * as Y from "yjs";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { percentile, round } from "./stats.ts";

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
  /** Capturing one version of the edited document (its full state, encoded). */
  captureMs: number;
  /** Restoring the fresh version onto the edited document: every edited block written back. */
  restoreMs: number;
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
  const captureStart = performance.now();
  const edited = stateBytes(bound.doc);
  const captureMs = performance.now() - captureStart;
  // What the server does on Restore: the version's content, then the block-by-block restore.
  const restoreStart = performance.now();
  restoreContent(bound.editor, stateFromYjsUpdate(fresh));
  const restoreMs = performance.now() - restoreStart;
  const row = {
    blocks,
    markdownKB: round(Buffer.byteLength(markdown) / 1024),
    versionKB: round(fresh.byteLength / 1024),
    gzipKB: round(gzipSync(fresh).byteLength / 1024),
    editedKB: round(edited / 1024),
    captureMs: round(captureMs),
    restoreMs: round(restoreMs),
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
      "capture ms": row.captureMs,
      [`restore after ${EDITS} edits ms`]: row.restoreMs,
      "restore target": row.blocks >= 10_000 ? "≤ 1000" : "",
    })),
  );
}

export type VersionListBenchRow = { versions: number; p50Ms: number; p95Ms: number };

/**
 * Saves `versions` named versions of one document through the API, then times the Versions view's
 * list (its first page, newest first) over HTTP, `samples` times.
 */
export async function benchVersionList(
  baseURL: string,
  { versions, samples }: { versions: number; samples: number },
): Promise<VersionListBenchRow> {
  const client = await new CoauthorClient(baseURL).signIn();
  const documentId = await client.createDocument(
    Array.from({ length: 50 }, (_, i) => paragraph(i)).join("\n\n"),
    "Versions bench",
  );
  for (let n = 1; n <= versions; n++) await client.trpc("versions.save", { documentId, name: `Draft ${n}` });
  const times: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    const start = performance.now();
    await client.trpc("versions.list", { documentId }, "query");
    times.push(performance.now() - start);
  }
  return { versions, p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)) };
}

export function printVersionList(row: VersionListBenchRow): void {
  console.log("\nVersions view: listing a document's versions (first page, newest first, over HTTP)");
  console.table([{ versions: row.versions, "p50 ms": row.p50Ms, "p95 ms": row.p95Ms }]);
}
