import type { HocuspocusProvider } from "@hocuspocus/provider";

/**
 * What the save indicator says, from the sync socket: every edit is a small Yjs update sent at
 * once; it is "synced" when the server has acknowledged all of them.
 */
export type SyncState = "connecting" | "synced" | "syncing" | "offline";

/** The state of `provider` given its socket's last status and whether it ever finished a first sync. */
export function syncStateOf(provider: HocuspocusProvider, status: string, everSynced: boolean): SyncState {
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
  const report = () => {
    everSynced ||= provider.isSynced;
    onChange(syncStateOf(provider, status, everSynced));
  };
  const onStatus = (event: { status: string }) => {
    status = event.status;
    report();
  };
  provider.on("status", onStatus);
  provider.on("synced", report);
  provider.on("unsyncedChanges", report);
  report();
  return () => {
    provider.off("status", onStatus);
    provider.off("synced", report);
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
  }
}
