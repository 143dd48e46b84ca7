import { ACCESS_CHANGED, DOCUMENT_DAMAGED, INVALID_CONTENT, saveStatusSchema } from "@coauthor/types";
import type { HocuspocusProvider } from "@hocuspocus/provider";

/**
 * What the save indicator says, from the sync socket: every edit is a small Yjs update sent at
 * once; it is "synced" when the server has acknowledged all of them and stores them. "unsaved":
 * the server holds them but storing them fails (it retries); "rejected": the server refused a
 * change of this copy (content the document may not hold), so nothing more from it can be saved.
 */
export type SyncState =
  | "connecting"
  | "synced"
  | "syncing"
  | "unsaved"
  | "offline"
  | "refused"
  | "rejected"
  | "damaged";

/**
 * Close codes the sync server sends when it will not serve the document: Hocuspocus' reset
 * (the document failed to load, e.g. a database error), unauthorized and forbidden.
 */
const REFUSALS = new Set([4205, 4401, 4403]);

/** What the server has said about this copy, beyond the socket's status. */
export type ServerVerdict = {
  /** It closed the copy with a refusal (access, load); cleared by the next successful sync. */
  refused: boolean;
  /** It refused the document because its stored state does not load. */
  damaged: boolean;
  /** It refused a change of this copy as content the document may not hold. */
  rejected: boolean;
  /** It could not store what it took from this copy and is retrying. */
  storeFailing: boolean;
};

const NO_VERDICT: ServerVerdict = { refused: false, damaged: false, rejected: false, storeFailing: false };

/** Whether the browser says it has no network (a server-side or test runtime has no `navigator.onLine`). */
function browserOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

/**
 * The state of `provider` given its socket's last status, whether it ever finished a first sync,
 * and the server's word. A copy that is not connected is "offline" once it has synced, once its
 * socket gave up a connection; any copy is "offline" while the browser has no network, whatever
 * its socket says: what is typed then is kept (the copy and its offline store) and merges when it
 * connects — even a copy that never finished a first sync, which would otherwise say
 * "Connecting…" for as long as the network is gone.
 */
export function syncStateOf(
  provider: HocuspocusProvider,
  status: string,
  everSynced: boolean,
  verdict: ServerVerdict = NO_VERDICT,
): SyncState {
  if (verdict.damaged) return "damaged";
  if (verdict.rejected) return "rejected";
  if (verdict.refused) return "refused";
  // The browser's word first: a socket that still looks connected has no network under it (a
  // WebSocket notices a lost network only when a heartbeat goes unanswered), and nothing is saved.
  if (browserOffline()) return "offline";
  if (status !== "connected") return everSynced || status === "disconnected" ? "offline" : "connecting";
  if (verdict.storeFailing) return "unsaved";
  if (!provider.isSynced) return everSynced ? "syncing" : "connecting";
  return provider.hasUnsyncedChanges ? "syncing" : "synced";
}

/**
 * Whether the server closed a copy because a change of it breaks the content rule. Hocuspocus
 * closes the document's connection (its socket stays open) with a close message that carries the
 * reason; the close code stays on the server.
 */
export function isInvalidContentClose(event: { reason?: string }): boolean {
  return event.reason === INVALID_CONTENT;
}

/** The save status a stateless message of the sync server carries, or null for any other message. */
function storedFrom(payload: string): boolean | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    // Not JSON: some other stateless message, not the save status.
    return null;
  }
  const status = saveStatusSchema.safeParse(parsed);
  return status.success ? status.data.stored : null;
}

/** Calls `onChange` with the provider's sync state whenever it may have changed; returns the unsubscribe function. */
export function watchSyncState(
  provider: HocuspocusProvider,
  onChange: (state: SyncState) => void,
): () => void {
  let status = "connecting";
  let everSynced = false;
  // Damaged and rejected stay (the session stops connecting); refused clears at the next sync.
  const verdict: ServerVerdict = { ...NO_VERDICT };
  const report = () => {
    everSynced ||= provider.isSynced;
    onChange(syncStateOf(provider, status, everSynced, verdict));
  };
  const onDenied = ({ reason }: { reason: string }) => {
    if (reason === DOCUMENT_DAMAGED) verdict.damaged = true;
    report();
  };
  const onClose = ({ event }: { event: { code: number; reason?: string } }) => {
    if (REFUSALS.has(event.code) || event.reason === ACCESS_CHANGED) verdict.refused = true;
    if (isInvalidContentClose(event)) verdict.rejected = true;
    report();
  };
  const onSynced = () => {
    verdict.refused = false;
    report();
  };
  const onStatus = (event: { status: string }) => {
    status = event.status;
    // The server says so again to a copy that connects while storing still fails.
    if (status !== "connected") verdict.storeFailing = false;
    report();
  };
  const onStateless = ({ payload }: { payload: string }) => {
    const stored = storedFrom(payload);
    if (stored === null) return;
    verdict.storeFailing = !stored;
    report();
  };
  provider.on("status", onStatus);
  provider.on("synced", onSynced);
  provider.on("close", onClose);
  provider.on("authenticationFailed", onDenied);
  provider.on("unsyncedChanges", report);
  provider.on("stateless", onStateless);
  // The browser's word on its network changes what a copy that is not connected says.
  const onNetwork = () => report();
  globalThis.addEventListener?.("online", onNetwork);
  globalThis.addEventListener?.("offline", onNetwork);
  report();
  return () => {
    globalThis.removeEventListener?.("online", onNetwork);
    globalThis.removeEventListener?.("offline", onNetwork);
    provider.off("status", onStatus);
    provider.off("synced", onSynced);
    provider.off("close", onClose);
    provider.off("authenticationFailed", onDenied);
    provider.off("unsyncedChanges", report);
    provider.off("stateless", onStateless);
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
    case "unsaved":
      return "Not saved — retrying";
    case "offline":
      return "Offline — your changes are kept";
    case "refused":
      return "Closed: you no longer have access to this document, or it could not be loaded — reload to try again";
    case "rejected":
      return "Not saved: the server refused a change made here (content a document cannot hold) — reload to continue from the saved version";
    case "damaged":
      return "Not loaded: this document is damaged";
  }
}
