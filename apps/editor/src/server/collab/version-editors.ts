import { log } from "@coauthor/agent-workflow";
import { and, asc, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { getDb } from "@/server/db";
import { documentEditors, documents, documentVersions, users } from "@/server/db/schema";

// Who changed each document since its last version, so every version — named, around a run,
// before a restore, after a pause — names the people who changed the document since the one
// before it, whichever instance takes it. Each instance notes the edits its own connections make
// (an update relayed from another instance is that instance's) and writes them to
// `document_editors` (a row per person and document, renumbered from one sequence at each write)
// at most once a second, so a keystroke never waits on the database; a version names the people
// whose row was written after the last one its predecessor named. An instance writes what it
// noted before it takes a version; another instance's edits of the last second may name their
// author in the next version instead.

/** How long an instance gathers edits before writing them (one statement per flush). */
const FLUSH_MS = 1_000;

/** Most people a version names (the list shows the first ones). */
const MAX_EDITORS = 50;

// On globalThis: Next bundles the server start (which notes edits) and the routes (which take
// versions) apart, and each bundle would have a pending map and a timer of its own.
const KEY = Symbol.for("coauthor.version-editors");
interface Pending {
  editors: Map<string, Set<string>>;
  timer: ReturnType<typeof setTimeout> | null;
}
type Holder = typeof globalThis & { [KEY]?: Pending };

function pending(): Pending {
  const holder = globalThis as Holder;
  holder[KEY] ??= { editors: new Map(), timer: null };
  return holder[KEY];
}

/** `userId` changed `documentId` (through a socket of this instance). */
export function noteVersionEditor(documentId: string, userId: string): void {
  const state = pending();
  const editors = state.editors.get(documentId) ?? new Set<string>();
  editors.add(userId);
  state.editors.set(documentId, editors);
  state.timer ??= setTimeout(() => {
    state.timer = null;
    flushVersionEditors().catch((error: unknown) =>
      log.error("versions: could not note who edited", { error }),
    );
  }, FLUSH_MS);
}

/** Writes what this instance noted (of `documentId` only, when given) to `document_editors`. */
export async function flushVersionEditors(documentId?: string): Promise<void> {
  const state = pending();
  const rows: Array<{ documentId: string; userId: string }> = [];
  for (const [id, editors] of state.editors) {
    if (documentId !== undefined && id !== documentId) continue;
    for (const userId of editors) rows.push({ documentId: id, userId });
    state.editors.delete(id);
  }
  if (rows.length === 0) return;
  const db = await getDb();
  // A document deleted (or a person who left) since: their row has nothing to refer to, and one
  // such row would fail the whole write.
  const [liveDocuments, liveUsers] = await Promise.all([
    db
      .select({ id: documents.id })
      .from(documents)
      .where(inArray(documents.id, [...new Set(rows.map((row) => row.documentId))])),
    db
      .select({ id: users.id })
      .from(users)
      .where(inArray(users.id, [...new Set(rows.map((row) => row.userId))])),
  ]);
  const documentIds = new Set(liveDocuments.map((row) => row.id));
  const userIds = new Set(liveUsers.map((row) => row.id));
  const kept = rows.filter((row) => documentIds.has(row.documentId) && userIds.has(row.userId));
  if (kept.length === 0) return;
  await db
    .insert(documentEditors)
    .values(kept)
    .onConflictDoUpdate({
      target: [documentEditors.documentId, documentEditors.userId],
      set: { editSeq: sql`nextval(pg_get_serial_sequence('document_editors', 'edit_seq'))` },
    });
}

/** Who a version names, and the last `edit_seq` it names them up to (its `editors_seq`). */
export interface VersionEditors {
  editedBy: string[];
  editorsSeq: number | null;
}

/**
 * The people who changed `documentId` since its last version (their row was written after the
 * last one that version named), for the version about to be taken; this instance's edits noted
 * so far are written first.
 */
export async function takeVersionEditors(documentId: string): Promise<VersionEditors> {
  await flushVersionEditors(documentId);
  const db = await getDb();
  const [last] = await db
    .select({ editorsSeq: documentVersions.editorsSeq })
    .from(documentVersions)
    .where(eq(documentVersions.documentId, documentId))
    .orderBy(desc(documentVersions.id))
    .limit(1);
  const since = last?.editorsSeq ?? null;
  const rows = await db
    .select({ userId: documentEditors.userId, editSeq: documentEditors.editSeq })
    .from(documentEditors)
    .where(
      and(
        eq(documentEditors.documentId, documentId),
        since === null ? undefined : gt(documentEditors.editSeq, since),
      ),
    )
    .orderBy(asc(documentEditors.editSeq));
  return {
    editedBy: rows.slice(0, MAX_EDITORS).map((row) => row.userId),
    editorsSeq: rows.at(-1)?.editSeq ?? since,
  };
}
