import type { LexicalEditor } from "lexical";
import * as Y from "yjs";
import { exportMarkdown } from "../markdown.ts";
import { loadDocument } from "./copies.ts";
import type { Facts } from "./facts.ts";
import { ModelViolation } from "./facts.ts";
import { viewOf } from "./observe.ts";

// What must hold once every copy has received everything (quiescence):
//  1. every copy, the server and the agent's mirror hold the same Yjs document;
//  2. every editor shows the same Markdown;
//  3. no editor drifted from its Yjs document: it equals a fresh editor loading that document's
//     state as a browser tab does (copies.ts loadDocument): the same Markdown, and the same
//     serialized Lexical state, block ids and formats included;
//  4. every addressable block has a block id, and no id appears twice;
//  5. every fact (marker words written, block ids returned by tools) is there, or was removed by
//     an op meant to remove it (facts.ts).

/** Where two JSON values first differ (a path and both values), or null when they are equal. */
function firstDifference(a: unknown, b: unknown, path = ""): string | null {
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return a === b ? null : `${path || "/"}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const found = firstDifference(
      (a as Record<string, unknown>)[key],
      (b as Record<string, unknown>)[key],
      `${path}/${key}`,
    );
    if (found !== null) return found;
  }
  return null;
}

/**
 * A serialized state without list items' `value` (their ordinal): Lexical derives it in a list
 * transform, and updates from other copies run without transforms, so a copy keeps the ordinal an
 * item had before a remote edit moved it (reported with issue #35: a numbered list can show a
 * wrong number until the next local edit). Everything else must match.
 */
function withoutItemOrdinals(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutItemOrdinals);
  if (typeof node !== "object" || node === null) return node;
  const entries = Object.entries(node)
    .filter(([key]) => !(key === "value" && (node as { type?: unknown }).type === "listitem"))
    .map(([key, value]) => [key, withoutItemOrdinals(value)]);
  return Object.fromEntries(entries);
}

/** The serialized Lexical state and Markdown a fresh editor builds from `doc`, loading it as a browser tab does. */
async function freshFrom(doc: Y.Doc): Promise<{ json: unknown; markdown: string }> {
  const fresh = await loadDocument(Y.encodeStateAsUpdate(doc));
  try {
    return { json: fresh.editor.getEditorState().toJSON(), markdown: exportMarkdown(fresh.editor) };
  } finally {
    fresh.dispose();
    fresh.doc.destroy();
  }
}

/** An editor of the model (a copy's, or the agent's) and the Yjs document it is bound to. */
export interface BoundCopy {
  name: string;
  editor: LexicalEditor;
  doc: Y.Doc;
}

/** Checks the invariants above once every message has been delivered; throws a ModelViolation listing every problem. */
export async function checkQuiescence(server: Y.Doc, editors: BoundCopy[], facts: Facts): Promise<void> {
  const problems: string[] = [];

  const reference = Y.snapshot(server);
  for (const { name, doc } of editors) {
    if (!Y.equalSnapshots(Y.snapshot(doc), reference))
      problems.push(`${name} holds another Yjs state than the server`);
    if (doc.store.pendingStructs !== null || doc.store.pendingDs !== null) {
      problems.push(`${name} still holds Yjs updates it could not apply`);
    }
  }

  const markdown = editors.map(({ editor }) => exportMarkdown(editor));
  for (const [n, { name }] of editors.entries()) {
    if (markdown[n] !== markdown[0])
      problems.push(`${name} shows other Markdown than copy 0:\n${markdown[n]}\n---\n${markdown[0]}`);
  }

  for (const [n, { name, editor, doc }] of editors.entries()) {
    const fresh = await freshFrom(doc);
    if (fresh.markdown !== markdown[n]) {
      problems.push(
        `${name} drifted from its Yjs document: it shows\n${markdown[n]}\n--- a fresh editor on it shows\n${fresh.markdown}`,
      );
    } else {
      const difference = firstDifference(
        withoutItemOrdinals(editor.getEditorState().toJSON()),
        withoutItemOrdinals(fresh.json),
      );
      if (difference !== null) {
        problems.push(
          `${name} drifted from its Yjs document (same Markdown; its Lexical state vs a fresh one's: ${difference})`,
        );
      }
    }
  }

  for (const { name, editor } of editors) {
    const { ids } = viewOf(editor);
    const missing = ids.filter((id) => id === "").length;
    const repeated = ids.filter((id, i) => id !== "" && ids.indexOf(id) !== i);
    if (missing > 0) problems.push(`${name}: ${missing} block(s) without an id`);
    if (repeated.length > 0) problems.push(`${name}: repeated block ids ${repeated.join(", ")}`);
  }

  const first = editors[0];
  if (first !== undefined) problems.push(...facts.unexcused(viewOf(first.editor)));

  if (problems.length > 0) {
    throw new ModelViolation(
      `after quiescence:\n- ${problems.join("\n- ")}\nfinal Markdown:\n${markdown[0]}`,
    );
  }
}
