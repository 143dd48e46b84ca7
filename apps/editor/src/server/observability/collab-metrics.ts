import { metrics, observeGauge } from "@coauthor/agent-workflow/telemetry";
import type { WebSocketServer } from "ws";

/** The sync server's load as gauges, read at each scrape. */
export function observeCollab(
  hocuspocus: { getDocumentsCount(): number; getConnectionsCount(): number },
  sockets: WebSocketServer,
): void {
  observeGauge("collab_open_documents", "Documents the sync server holds open", () =>
    hocuspocus.getDocumentsCount(),
  );
  observeGauge("collab_open_connections", "Document connections on the sync server", () =>
    hocuspocus.getConnectionsCount(),
  );
  observeGauge(
    "collab_open_sockets",
    "WebSockets open on the sync server (/collab)",
    () => sockets.clients.size,
  );
}

/** Counts a failed attempt to store a document's changes (`coauthor_collab_store_failures_total`). */
export function countStoreFailure(what: "update" | "document"): void {
  metrics().collabStoreFailures.inc({ what });
}
