// What the browser and the sync server must agree on about the collaboration socket.

/** The path of the sync socket, on the app's own origin and port. */
export const COLLAB_PATH = "/collab";

/** The reason the sync server gives when it closes a copy because its user's access changed. */
export const ACCESS_CHANGED = "access-changed";

/**
 * The reason the sync server gives when a document's stored state fails to load: the page stops
 * reconnecting and shows the damage notice (restoring the last good version is the way out).
 */
export const DOCUMENT_DAMAGED = "document-damaged";
