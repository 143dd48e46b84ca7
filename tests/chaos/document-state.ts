// A document as one copy has it, reduced to what the invariants compare: its text (markers are
// words of it), its Markdown and its top-level block ids. Read from a live copy, or from storage
// (the snapshot merged with the update log, as the server loads it) without any instance.
import { $getBlockId, bindDocumentEditor, exportMarkdown } from "@coauthor/tools";
import { $getRoot, type LexicalEditor } from "lexical";
import type postgres from "postgres";
import * as Y from "yjs";

export interface DocumentState {
  text: string;
  markdown: string;
  blockIds: string[];
}

/** The state of the document in `editor` now. */
export function documentStateOf(editor: LexicalEditor): DocumentState {
  // Commits whatever a remote change left pending, so the read is of everything received.
  editor.update(() => undefined, { discrete: true });
  return editor.getEditorState().read(() => {
    const root = $getRoot();
    return {
      text: root.getTextContent(),
      markdown: exportMarkdown(editor),
      blockIds: root.getChildren().map((block) => $getBlockId(block) ?? "(none)"),
    };
  });
}

/** The document as storage holds it: its snapshot and the update log after it, merged. */
export async function storedDocumentState(sql: postgres.Sql, documentId: string): Promise<DocumentState> {
  const [row] = await sql<{ snapshot: Uint8Array | null }[]>`
    select yjs_snapshot as snapshot from documents where id = ${documentId}`;
  if (!row) throw new Error(`no document ${documentId} in storage`);
  const log = await sql<{ update: Uint8Array }[]>`
    select "update" from document_updates where document_id = ${documentId} order by id`;
  const parts = [...(row.snapshot ? [row.snapshot] : []), ...log.map((entry) => entry.update)];
  const bound = bindDocumentEditor(Y.mergeUpdates(parts.map((part) => new Uint8Array(part))));
  try {
    return documentStateOf(bound.editor);
  } finally {
    bound.dispose();
    bound.doc.destroy();
  }
}

/** How many times `word` occurs in `text` as a whole word. */
export function occurrences(text: string, word: string): number {
  let count = 0;
  for (const token of text.split(/\s+/)) if (token === word) count++;
  return count;
}

/** Where two states differ, in a line: the first differing block, or the block ids' difference. */
export function difference(a: DocumentState, b: DocumentState): string {
  if (a.blockIds.join() !== b.blockIds.join()) {
    const onlyA = a.blockIds.filter((id) => !b.blockIds.includes(id));
    const onlyB = b.blockIds.filter((id) => !a.blockIds.includes(id));
    return `block ids differ (${a.blockIds.length} vs ${b.blockIds.length}; only in the first: ${onlyA.join(", ") || "none"}; only in the second: ${onlyB.join(", ") || "none"})`;
  }
  const linesA = a.markdown.split("\n");
  const linesB = b.markdown.split("\n");
  const at = linesA.findIndex((line, index) => line !== linesB[index]);
  if (at < 0 && linesA.length === linesB.length) return "no difference";
  return `line ${at < 0 ? linesA.length : at + 1}: ${JSON.stringify(linesA[at] ?? "(end)")} vs ${JSON.stringify(linesB[at] ?? "(end)")}`;
}
