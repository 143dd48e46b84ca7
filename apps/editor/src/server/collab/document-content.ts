import type { MarkdownView } from "@coauthor/types";
import * as Y from "yjs";
import { READ_BUDGET_MS, runDocumentWork } from "@/server/document-work/worker-pool";
import { reportDamage } from "./document-health";
import { loadStoredState } from "./stored-state";
import { liveDocument } from "./sync-server";

/**
 * The document's current Yjs state: the live copy's when this instance has the document open (it
 * has every update it received, and was checked when it loaded: `live` true), else the stored state
 * (not yet checked). Null when the document does not exist.
 */
export async function currentDocumentState(
  documentId: string,
): Promise<{ state: Uint8Array; live: boolean } | null> {
  const live = liveDocument(documentId);
  if (live && !live.isLoading) return { state: Y.encodeStateAsUpdate(live), live: true };
  const state = await loadStoredState(documentId);
  return state ? { state, live: false } : null;
}

/**
 * The document's current content as Markdown: the live copy's when this instance has the document
 * open (it has every update it received), else the stored state's, converted in a worker thread
 * (document-work) within READ_BUDGET_MS. Null when the document does not exist; a
 * `DocumentDamagedError` (the damage is reported) when its content cannot be read; a
 * `DocumentWorkTooSlow` past the budget. The server's reads (chat, export, the agent's) all come
 * through here: Markdown is derived from Yjs, never stored beside it.
 */
export async function readDocumentMarkdown(documentId: string): Promise<string | null> {
  const current = await currentDocumentState(documentId);
  if (!current) return null;
  const exported = await runDocumentWork("exportStateMarkdown", current.state, READ_BUDGET_MS);
  if (!exported.ok) throw await reportDamage(documentId, new Error(exported.damage));
  return exported.markdown;
}

/** Why a CriticMarkup export was refused: text it cannot carry exactly (the message names the block). */
export class CriticMarkupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CriticMarkupRefused";
  }
}

/**
 * The document's current content as Markdown in `view` (accepted, rejected, CriticMarkup; none:
 * every block as the editor shows it) and whether it has pending suggestions, read as
 * readDocumentMarkdown reads it. Null when the document does not exist; a `CriticMarkupRefused`
 * when the CriticMarkup export cannot carry its text.
 */
export async function readDocumentView(
  documentId: string,
  view: MarkdownView | undefined,
): Promise<{ markdown: string; hasSuggestions: boolean } | null> {
  const current = await currentDocumentState(documentId);
  if (!current) return null;
  const exported = await runDocumentWork("exportStateView", { state: current.state, view }, READ_BUDGET_MS);
  if (exported.ok) return { markdown: exported.markdown, hasSuggestions: exported.hasSuggestions };
  if ("invalidCriticMarkup" in exported) throw new CriticMarkupRefused(exported.invalidCriticMarkup);
  throw await reportDamage(documentId, new Error(exported.damage));
}
