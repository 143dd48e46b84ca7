import { log } from "@coauthor/agent-workflow";
import type { Hocuspocus } from "@hocuspocus/server";
import { spoolUnstored } from "./unstored-spool";

/** How long a stop keeps trying to store what it holds before leaving it for the next start. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** What a stop asks of the storage extension. */
export interface StorageStop {
  /** Stores what is unstored until `deadline`; returns, per document, what is still unstored. */
  stop(deadline: number): Promise<Map<string, Uint8Array>>;
}

/**
 * A clean stop of the sync server (SIGTERM, issue #35). Its copies are disconnected first: they
 * reconnect to another instance, which stores what they hold and storage lacks. Then what this
 * instance received and has not stored (its own appends failing or under way, and the updates
 * relayed to it) is stored, retried until the grace ends, as a database outage may end within it.
 * What is left then is written to the data folder and stored at the next start (unstored-spool.ts).
 */
export async function stopSyncServer(
  hocuspocus: Hocuspocus,
  storage: StorageStop,
  graceMs = SHUTDOWN_GRACE_MS,
): Promise<void> {
  const deadline = Date.now() + graceMs;
  hocuspocus.closeConnections();
  hocuspocus.flushPendingStores();
  // The stores just started reach document-saves after a few promise turns: let them, so the drain
  // waits for them too.
  await new Promise((resolve) => setImmediate(resolve));
  const unstored = await storage.stop(deadline);
  if (unstored.size === 0) return;
  spoolUnstored(unstored);
  log.warn("collab: stopping with changes the database did not take; the next start stores them", {
    documents: [...unstored.keys()],
  });
}
