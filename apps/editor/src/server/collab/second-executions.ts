import { log } from "@coauthor/agent-workflow";
import { removeSecondExecutions } from "@coauthor/tools";
import type * as Y from "yjs";

/** The origin of the server's deletion of a second execution (it carries no call record of its own). */
const SECOND_EXECUTION = "coauthor-second-execution";

/**
 * After an update from a copy was applied to `document`: when it carries the record of a tool call
 * another executor had already run (a tab ran it offline while the server ran it again), deletes
 * what that second execution inserted, so every copy holds the call's edit once
 * (`removeSecondExecutions` in the tools says how the items are found).
 */
export function undoSecondExecutions(documentId: string, document: Y.Doc, update: Uint8Array): void {
  const deleted = removeSecondExecutions(document, update, SECOND_EXECUTION);
  if (deleted > 0)
    log.warn("collab: deleted the edit of a tool call run a second time", { documentId, deleted });
}
