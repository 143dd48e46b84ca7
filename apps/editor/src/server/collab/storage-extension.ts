import { log } from "@coauthor/agent-workflow";
import type { SaveStatus } from "@coauthor/types";
import { type Extension, type Hocuspocus, isTransactionOrigin } from "@hocuspocus/server";
import { roleAllows } from "@/server/auth/roles";
import { findDocumentAccess } from "@/server/documents";
import { countStoreFailure } from "@/server/observability/collab-metrics";
import { checkIncomingUpdate } from "./content-door";
import { checkStateLoads, keepLastGood, reportDamage, StateLoadError } from "./document-health";
import { DocumentSaves } from "./document-saves";
import { searchTextOf } from "./document-text";
import { RelayedUpdates } from "./relayed-updates";
import { undoSecondExecutions } from "./second-executions";
import { loadStoredState } from "./stored-state";
import type { StorageStop } from "./sync-shutdown";
import { appendUpdate, compactUpdateLog, touchDocument } from "./update-log";
import { flushVersionEditors } from "./version-editors";

/** Who a socket belongs to; set from the session cookie before the upgrade is accepted. */
export interface SocketContext {
  userId: string;
}

// y-protocols sync message types that carry document content (sync step 1 carries a state vector).
const SYNC_STEP_2 = 1;
const SYNC_UPDATE = 2;

/** Updates relayed from another instance through Redis (that instance stores them, and so does this one). */
function isRelayed(origin: unknown): boolean {
  return isTransactionOrigin(origin) && origin.source === "redis";
}

function saveStatusMessage(stored: boolean): string {
  return JSON.stringify({ type: "save-status", stored } satisfies SaveStatus);
}

/** Told of every change a connection (or a server edit) of this instance makes to a document. */
type LocalChangeListener = (documentId: string, editorId?: string) => void;
const localChangeListeners = new Set<LocalChangeListener>();

/**
 * Calls `listener` on every change this instance's connections, or its own server edits, make to
 * a document (not those relayed from another instance: they are that instance's to report), with
 * the user who made it (none for a server edit). Returns the unsubscribe.
 */
export function onLocalChange(listener: LocalChangeListener): () => void {
  localChangeListeners.add(listener);
  return () => localChangeListeners.delete(listener);
}

/**
 * The storage and access rules, as a Hocuspocus extension:
 * - onConnect: the socket's user must be the owner or a member of the document; viewers get a
 *   read-only connection (Hocuspocus drops their document updates, whatever the client sends);
 * - beforeSync: content is checked at the door (content-door.ts): bytes that are not a Yjs update,
 *   or an update that breaks the content rule (a node type no editor knows, a forbidden control
 *   character, nesting deeper than the rule), close the connection with invalid-content and are
 *   never applied, broadcast or stored;
 * - onLoadDocument: the stored state once it loads (kept as the last good version), or an error
 *   (never an empty document in place of a failed load; a damaged one is reported, see document-health);
 * - onChange: every update is appended to the log as it arrives; an update relayed from another
 *   instance is stored here too, merged with the others within seconds (relayed-updates.ts): the
 *   instance that received it may die before its append lands;
 * - onStoreDocument (debounced): the log is compacted and the document marked as edited, with its
 *   plain text (home page search and snippet) and who sent the last update stored here;
 * - a failed store is never silent (document-saves.ts): it is retried until it succeeds, the copies
 *   connected here are told (a stateless save-status message: their indicator says "Not saved —
 *   retrying"; one that connects meanwhile is told at once), and the document stays in memory
 *   until its changes are stored.
 */
export function storageExtension(): Extension & StorageStop {
  /** Per open document, the user whose update this instance last stored (for "last edited by"). */
  const lastEditors = new Map<string, string>();
  /**
   * Open documents this instance took a change of since their last store: a store with nothing
   * new (a copy that only read, a server edit that was refused) marks nothing as edited.
   */
  const changedSinceStore = new Set<string>();
  let instance: Hocuspocus | null = null;
  const saves = new DocumentSaves({
    append: appendUpdate,
    countFailure: countStoreFailure,
    announce: (documentId, stored) => {
      const document = instance?.documents.get(documentId);
      if (!instance || !document) return;
      // This instance's connections only (broadcastStateless would go to every instance through
      // Redis): each instance stores the updates of the connections it holds, and says so to them.
      document.relayStateless(saveStatusMessage(stored));
      // Kept in memory while its changes were not stored (beforeUnloadDocument); unloaded now if nobody is on it.
      if (stored && document.getConnectionsCount() === 0) void instance.unloadDocument(document);
    },
  });
  const relayed = new RelayedUpdates({ store: (documentId, update) => saves.append(documentId, update) });
  return {
    async onConfigure(payload) {
      instance = payload.instance;
    },
    async onConnect({ context, documentName, connectionConfig }) {
      const { userId } = context as SocketContext;
      const access = await findDocumentAccess(userId, documentName);
      if (!access) throw new Error("forbidden: not a member of this document");
      connectionConfig.readOnly = !roleAllows(access.role, "edit");
    },
    async connected({ documentName, connection }) {
      if (saves.isFailing(documentName)) connection.sendStateless(saveStatusMessage(false));
    },
    async beforeSync({ type, payload, document, documentName }) {
      if (type !== SYNC_STEP_2 && type !== SYNC_UPDATE) return;
      checkIncomingUpdate(documentName, payload, document);
    },
    async onLoadDocument({ documentName }) {
      // A damaged state is refused with its reason (DOCUMENT_DAMAGED): the client stops retrying.
      const state = await loadStoredState(documentName);
      if (!state) throw new Error(`no document ${documentName}`);
      let checked: Awaited<ReturnType<typeof checkStateLoads>>;
      try {
        checked = await checkStateLoads(state);
      } catch (error) {
        if (error instanceof StateLoadError) throw await reportDamage(documentName, error);
        throw error;
      }
      // Checked, so the state every copy starts from is the document's last good version. A check
      // past its budget opens the document all the same (nobody is locked out of a large one).
      if (checked === "loads") await keepLastGood(documentName, state);
      else log.warn("collab: a state opened unchecked (its check ran out of time)", { documentName });
      return state;
    },
    async onChange({ documentName, document, update, transactionOrigin, context }) {
      if (isRelayed(transactionOrigin)) {
        relayed.add(documentName, update);
        return;
      }
      changedSinceStore.add(documentName);
      undoSecondExecutions(documentName, document, update);
      const { userId } = context as SocketContext;
      // Server-side changes (a restore) carry no socket context.
      const editorId = typeof userId === "string" ? userId : undefined;
      if (editorId !== undefined) lastEditors.set(documentName, editorId);
      for (const listener of localChangeListeners) listener(documentName, editorId);
      // After this turn's broadcast to the other copies (Hocuspocus flushes at the end of the
      // turn): the embedded database works on this thread and would hold the keystroke up.
      await new Promise((resolve) => setImmediate(resolve));
      await saves.append(documentName, update);
    },
    async onStoreDocument({ documentName, document }) {
      if (!changedSinceStore.delete(documentName)) return;
      const edit = {
        plainText: searchTextOf(documentName, document),
        editorId: lastEditors.get(documentName),
      };
      await saves.store(documentName, async () => {
        await Promise.all([compactUpdateLog(documentName), touchDocument(documentName, edit)]);
      });
    },
    async beforeUnloadDocument({ documentName }) {
      await relayed.flush(documentName);
      // Unloaded, its unstored changes would be gone from here (a copy that holds them sends them
      // again when it reconnects, but one that connects fresh would load what is stored).
      if (saves.isFailing(documentName))
        throw new Error(`document ${documentName} has changes not yet stored`);
    },
    async stop(deadline) {
      // Started, not awaited: the appends under way are the drain's to wait for, within the deadline.
      void relayed.flushAll();
      // Who edited in the last second, for the next version (a failure is logged: the stop goes on).
      void flushVersionEditors().catch((error: unknown) =>
        log.error("collab: could not note who edited before stopping", { error }),
      );
      return saves.drain(deadline);
    },
    async afterUnloadDocument({ documentName }) {
      lastEditors.delete(documentName);
      changedSinceStore.delete(documentName);
    },
  };
}
