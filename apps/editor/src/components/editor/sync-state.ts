import { ACCESS_CHANGED, DOCUMENT_DAMAGED } from "@coauthor/types";
import type { HocuspocusProvider } from "@hocuspocus/provider";

/**
 * What the save indicator says, from the sync socket: every edit is a small Yjs update sent at
 * once; it is "synced" when the server has acknowledged all of them.
 */
export type SyncState = "connecting" | "synced" | "syncing" | "offline" | "refused" | "damaged";

/**
 * Close codes the sync server sends when it will not serve the document: Hocuspocus' reset
 * (the document failed to load, e.g. a database error), unauthorized and forbidden.
 */
const REFUSALS = new Set([4205, 4401, 4403]);

/** The state of `provider` given its socket's last status and whether it ever finished a first sync. */
export function syncStateOf(
  provider: HocuspocusProvider,
  status: string,
  everSynced: boolean,
  refused = false,
  damaged = false,
): SyncState {
  if (damaged) return "damaged";
  if (refused) return "refused";
  if (status !== "connected") return everSynced || status === "disconnected" ? "offline" : "connecting";
  if (!provider.isSynced) return everSynced ? "syncing" : "connecting";
  return provider.hasUnsyncedChanges ? "syncing" : "synced";
}

/** Calls `onChange` with the provider's sync state whenever it may have changed; returns the unsubscribe function. */
export function watchSyncState(
  provider: HocuspocusProvider,
  onChange: (state: SyncState) => void,
): () => void {
  let status = "connecting";
  let everSynced = false;
  // The server closed the socket with a refusal; cleared by the next successful sync.
  let refused = false;
  // The server refused the document because its stored state does not load (the session stops retrying).
  let damaged = false;
  const report = () => {
    everSynced ||= provider.isSynced;
    onChange(syncStateOf(provider, status, everSynced, refused, damaged));
  };
  const onDenied = ({ reason }: { reason: string }) => {
    if (reason === DOCUMENT_DAMAGED) damaged = true;
    report();
  };
  const onClose = ({ event }: { event: { code: number; reason?: string } }) => {
    if (REFUSALS.has(event.code) || event.reason === ACCESS_CHANGED) refused = true;
    report();
  };
  const onSynced = () => {
    refused = false;
    report();
  };
  const onStatus = (event: { status: string }) => {
    status = event.status;
    report();
  };
  provider.on("status", onStatus);
  provider.on("synced", onSynced);
  provider.on("close", onClose);
  provider.on("authenticationFailed", onDenied);
  provider.on("unsyncedChanges", report);
  report();
  return () => {
    provider.off("status", onStatus);
    provider.off("synced", onSynced);
    provider.off("close", onClose);
    provider.off("authenticationFailed", onDenied);
    provider.off("unsyncedChanges", report);
  };
}

/** The words the indicator shows for a state. */
export function describeSyncState(state: SyncState): string {
  switch (state) {
    case "connecting":
      return "Connecting…";
    case "synced":
      return "Saved";
    case "syncing":
      return "Saving…";
    case "offline":
      return "Offline — your changes are kept";
    case "refused":
      return "Closed: you no longer have access to this document, or it could not be loaded — reload to try again";
    case "damaged":
      return "Not loaded: this document is damaged";
  }
}
