import { log } from "@coauthor/agent-workflow";
import { type BoundDocumentEditor, bindDocumentEditor, unknownNodeTypes } from "@coauthor/tools";
import { DOCUMENT_DAMAGED } from "@coauthor/types";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { getDb } from "@/server/db";
import { documents } from "@/server/db/schema";
import { DocumentWorkTooSlow, READ_BUDGET_MS, runDocumentWork } from "@/server/document-work/worker-pool";

/**
 * Whether a stored document loads, and what is kept for when it does not: the last state that
 * loaded cleanly ("last good") and the mark that it is damaged. A state *loads* when Yjs decodes
 * it, it holds no node type the editor does not know, and the server's own conversion (a headless
 * Lexical editor bound to it, as chat and export read it) builds it without an error.
 */

/**
 * A stored document the editor cannot read (content from before the door checks, a bad write, a
 * bug). Routes answer it with 409 and a message, never a 500; the sync server refuses the socket
 * with its `reason` (`DOCUMENT_DAMAGED`), which Hocuspocus sends to the client as the denial.
 */
/** What the routes tell the client about a damaged document (the cause stays in the server log). */
export const DAMAGED_MESSAGE = "this document's stored content could not be read; nothing was changed";

export class DocumentDamagedError extends Error {
  readonly documentId: string;
  readonly reason = DOCUMENT_DAMAGED;
  constructor(documentId: string, cause: unknown) {
    super(DAMAGED_MESSAGE, { cause });
    this.name = "DocumentDamagedError";
    this.documentId = documentId;
  }
}

/** A headless editor bound to `state`; throws when `state` does not load (see above). */
export function bindLoadedState(state: Uint8Array): BoundDocumentEditor {
  const unknown = unknownNodeTypes(state);
  if (unknown.length > 0) throw new Error(`unknown node types: ${unknown.join(", ")}`);
  return bindDocumentEditor(state);
}

/** Why a state does not load (see above), as the cause to report. */
export class StateLoadError extends Error {
  constructor(problem: string) {
    super(problem);
    this.name = "StateLoadError";
  }
}

/**
 * Throws a StateLoadError when `state` does not load; "unchecked" when the check did not finish
 * within READ_BUDGET_MS, which says nothing about the state. The check costs one headless
 * conversion of the whole document, so it runs in a worker thread (document-work), never on the
 * event loop.
 */
export async function checkStateLoads(state: Uint8Array): Promise<"loads" | "unchecked"> {
  let problem: string | null;
  try {
    problem = await runDocumentWork("stateLoadProblem", state, READ_BUDGET_MS);
  } catch (error) {
    if (error instanceof DocumentWorkTooSlow) return "unchecked";
    throw error;
  }
  if (problem !== null) throw new StateLoadError(problem);
  return "loads";
}

/** Whether `state` loads: true, false (the cause at debug level), or null when unchecked (see checkStateLoads). */
export async function stateLoads(state: Uint8Array): Promise<boolean | null> {
  try {
    return (await checkStateLoads(state)) === "loads" ? true : null;
  } catch (error) {
    if (!(error instanceof StateLoadError)) throw error;
    log.debug("collab: a state does not load", { error });
    return false;
  }
}

/**
 * Records that the document's stored state failed to load (logged with its cause, marked on the
 * row for the page and the agent route) and returns the error to throw.
 */
export async function reportDamage(documentId: string, cause: unknown): Promise<DocumentDamagedError> {
  log.error("collab: a stored document could not be loaded", { documentId, error: cause });
  const db = await getDb();
  await db
    .update(documents)
    .set({ damagedAt: new Date() })
    .where(and(eq(documents.id, documentId), isNull(documents.damagedAt)));
  return new DocumentDamagedError(documentId, cause);
}

/**
 * Keeps `state`, which the caller checked loads, as the document's last good state, unless a newer
 * one (kept at a later `at`) is already there; a document that loads is no longer damaged.
 */
export async function keepLastGood(documentId: string, state: Uint8Array, at = new Date()): Promise<void> {
  const db = await getDb();
  await db
    .update(documents)
    .set({ lastGoodSnapshot: state, lastGoodAt: at, damagedAt: null })
    .where(and(eq(documents.id, documentId), or(isNull(documents.lastGoodAt), lt(documents.lastGoodAt, at))));
}

/** Whether the document is marked damaged, and when its last good state was kept (null: never). */
export async function documentDamage(
  documentId: string,
): Promise<{ damaged: boolean; lastGoodAt: Date | null } | null> {
  const db = await getDb();
  const [row] = await db
    .select({ damagedAt: documents.damagedAt, lastGoodAt: documents.lastGoodAt })
    .from(documents)
    .where(eq(documents.id, documentId));
  return row ? { damaged: row.damagedAt !== null, lastGoodAt: row.lastGoodAt } : null;
}
