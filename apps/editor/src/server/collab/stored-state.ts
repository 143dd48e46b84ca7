import { log } from "@coauthor/agent-workflow";
import type { StoredStateRepair } from "@coauthor/tools/document-work";
import { DocumentWorkTooSlow, READ_BUDGET_MS, runDocumentWork } from "@/server/document-work/worker-pool";
import { insertVersion } from "@/server/version-store";
import { appendUpdate, loadDocumentState } from "./update-log";

/**
 * The document's stored state as every reader gets it (the sync server, chat and export, the
 * page's first render): merged from snapshot and log, and repaired when it breaks the content rule
 * (`repairContent`, in a worker thread: content stored before the rule was enforced at every door,
 * nested too deep to open or holding control characters). The state before it is kept as a
 * version, and the repair is stored as one more update in the log — a
 * forward change every copy, an offline one too, converges on — so it happens once. Null when
 * there is no such document.
 */
export async function loadStoredState(documentId: string): Promise<Uint8Array | null> {
  const state = await loadDocumentState(documentId);
  if (!state) return null;
  let repair: StoredStateRepair;
  try {
    // A walk of the whole document: in a worker thread, off the event loop.
    repair = await runDocumentWork("repairStoredState", state, READ_BUDGET_MS);
  } catch (error) {
    if (!(error instanceof DocumentWorkTooSlow)) throw error;
    log.warn("collab: stored content was not checked for repair (the check ran out of time)", { documentId });
    return state;
  }
  if ("unreadable" in repair) {
    // Not a state this can read (bytes Yjs cannot decode, nesting past what Yjs itself walks): the
    // load's own check reports it as damage, and the owner restores the last good version.
    log.warn("collab: stored content could not be checked for repair", {
      documentId,
      error: repair.unreadable,
    });
    return state;
  }
  if (!repair.repaired) return state;
  // The state as it was, kept first: the repair flattens and removes, and the owner may want it back.
  await insertVersion({
    documentId,
    kind: "repair-before",
    label: "Before repairing content stored before the content rule",
    createdBy: null,
    state,
  });
  // Only what the repair added (its deletions and paragraphs), not the whole state again.
  await appendUpdate(documentId, repair.update);
  log.warn("collab: repaired stored content that broke the content rule", {
    documentId,
    flattenedBlocks: repair.flattenedBlocks,
    removedControls: repair.removedControls,
  });
  return repair.state;
}
