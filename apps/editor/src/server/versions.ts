import { log } from "@coauthor/agent-workflow";
import { type DocumentBlock, restoreContent, stateFromYjsUpdate } from "@coauthor/tools";
import { and, desc, eq, gt, inArray, isNull, lt, or } from "drizzle-orm";
import { currentDocumentState } from "@/server/collab/document-content";
import { StateLoadError } from "@/server/collab/document-health";
import { editLiveDocument } from "@/server/collab/live-edit";
import { takeVersionEditors, type VersionEditors } from "@/server/collab/version-editors";
import { getDb } from "@/server/db";
import { documentVersions, runs, users } from "@/server/db/schema";
import { READ_BUDGET_MS, runDocumentWork } from "@/server/document-work/worker-pool";
import { runsBetweenVersions } from "@/server/version-runs";
import { insertVersion } from "@/server/version-store";

// Version history: full Yjs states of a document, taken around agent runs, before a restore, and
// when a writer saves one (see the schema's comment for why full states). Restoring one is a
// forward change to the live document, never a replacement of its stored state.

export type VersionKind = (typeof documentVersions.$inferInsert)["kind"];

/** Longest run prompt quoted in a version's label. */
const MAX_QUOTED_PROMPT = 60;

function quoted(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return `"${line.length > MAX_QUOTED_PROMPT ? `${line.slice(0, MAX_QUOTED_PROMPT - 1)}…` : line}"`;
}

/**
 * Stores the document's current state as a version (the live copy's when this instance has it
 * open), or `state` when the caller captured it already. Returns its id, or null when the document
 * is gone.
 */
export async function saveVersion(
  documentId: string,
  {
    editors,
    ...version
  }: {
    kind: VersionKind;
    label: string;
    createdBy: string | null;
    runId?: string;
    /** Who it names (taken for it when not given). */
    editors?: VersionEditors;
  },
  state?: Promise<CurrentState>,
): Promise<number | null> {
  const current = await (state ?? currentDocumentState(documentId));
  if (!current) return null;
  const named = editors ?? (await takeVersionEditors(documentId));
  return insertVersion({ documentId, ...version, ...named, state: current.state });
}

type CurrentState = Awaited<ReturnType<typeof currentDocumentState>>;

/**
 * Saves the version taken before (`moment` "before") or after an agent run, labelled with the
 * run's prompt and writer. With `documentId`, the state is captured in this very call — the live
 * copy synchronously, before the run can have made an edit — and stored afterwards. Not awaited by
 * the run's path: a failure is logged, never the run's.
 */
export function saveRunVersion(
  runId: string,
  moment: "before" | "after",
  documentId?: string,
): Promise<void> {
  const captured = documentId === undefined ? undefined : currentDocumentState(documentId);
  return (async () => {
    const db = await getDb();
    const [run] = await db
      .select({ documentId: runs.documentId, prompt: runs.prompt, userId: runs.userId, writer: users.name })
      .from(runs)
      .leftJoin(users, eq(users.id, runs.userId))
      .where(eq(runs.id, runId));
    if (!run) return;
    const label = `${moment === "before" ? "Before" : "After"} Coauthor's run ${quoted(run.prompt)} for ${run.writer ?? "a former member"}`;
    await saveVersion(
      run.documentId,
      { kind: moment === "before" ? "run-before" : "run-after", label, createdBy: run.userId, runId },
      captured,
    );
  })().catch((error: unknown) => {
    log.error("versions: could not save a run's version", { runId, moment, error });
  });
}

/** "Alice", "Alice and Bob", "Alice, Bob and Carol". */
function namesList(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * Saves the version taken after a pause in editing (collab/edit-versions.ts), labelled with who
 * edited since the last one ("Edits by Alice and Bob"; "Edits" when only the server edited).
 */
export async function saveEditVersion(documentId: string, editorIds: string[]): Promise<void> {
  const taken = await takeVersionEditors(documentId);
  const editedBy = [...new Set([...editorIds, ...taken.editedBy])];
  const names = await namesOf(editedBy);
  const label =
    editedBy.length === 0 ? "Edits" : `Edits by ${namesList(editedBy.flatMap((id) => names.get(id) ?? []))}`;
  await saveVersion(documentId, {
    kind: "edits",
    label,
    createdBy: editedBy.find((id) => names.has(id)) ?? null,
    editors: { editedBy, editorsSeq: taken.editorsSeq },
  });
}

/** The names of the users `ids` that still exist, by id. */
async function namesOf(ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const db = await getDb();
  const rows = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(inArray(users.id, [...ids]));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** When the document's last version after a pause in editing was taken (epoch ms), or null. */
export async function lastEditVersionAt(documentId: string): Promise<number | null> {
  const db = await getDb();
  const [row] = await db
    .select({ createdAt: documentVersions.createdAt })
    .from(documentVersions)
    .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.kind, "edits")))
    .orderBy(desc(documentVersions.id))
    .limit(1);
  return row ? row.createdAt.getTime() : null;
}

/** Most versions one list answer holds (newest first). */
const VERSION_PAGE = 200;

/**
 * The document's versions, newest first: what the Versions view lists. Each carries the agent runs
 * that changed the document since the version before it (`runs`, see version-runs.ts) and the
 * people who did (`editedBy`, their names; collab/version-editors.ts).
 */
export async function listVersions(documentId: string) {
  const db = await getDb();
  // One more than a page: the oldest listed version's window starts at the one before it.
  const rows = await db
    .select({
      id: documentVersions.id,
      kind: documentVersions.kind,
      label: documentVersions.label,
      createdAt: documentVersions.createdAt,
      createdBy: users.name,
      runId: documentVersions.runId,
      editedBy: documentVersions.editedBy,
    })
    .from(documentVersions)
    .leftJoin(users, eq(users.id, documentVersions.createdBy))
    .where(eq(documentVersions.documentId, documentId))
    .orderBy(desc(documentVersions.id))
    .limit(VERSION_PAGE + 1);
  const listed = rows.slice(0, VERSION_PAGE);
  const newest = listed[0];
  if (!newest) return [];
  const before = rows[VERSION_PAGE]?.createdAt ?? null;
  const spans = await db
    .select({
      runId: runs.id,
      prompt: runs.prompt,
      writer: users.name,
      createdAt: runs.createdAt,
      finishedAt: runs.finishedAt,
    })
    .from(runs)
    .leftJoin(users, eq(users.id, runs.userId))
    .where(
      and(
        eq(runs.documentId, documentId),
        lt(runs.createdAt, newest.createdAt),
        before ? or(isNull(runs.finishedAt), gt(runs.finishedAt, before)) : undefined,
      ),
    );
  const runsOf = runsBetweenVersions(listed, spans, before);
  const names = await namesOf([...new Set(listed.flatMap((version) => version.editedBy ?? []))]);
  return listed.map(({ runId: _ownRun, editedBy, ...version }, index) => ({
    ...version,
    runs: runsOf[index] ?? [],
    // People who changed the document since the version before (those who left are not named).
    editedBy: (editedBy ?? []).flatMap((id) => names.get(id) ?? []),
  }));
}

async function versionRow(documentId: string, versionId: number) {
  const db = await getDb();
  const [row] = await db
    .select({ state: documentVersions.state, label: documentVersions.label })
    .from(documentVersions)
    .where(and(eq(documentVersions.id, versionId), eq(documentVersions.documentId, documentId)));
  return row ?? null;
}

/**
 * A version of the document as Markdown and as blocks (ids, Markdown, who wrote them: what the
 * Versions view compares), with its label; null when the document has no such version.
 */
export async function versionContent(
  documentId: string,
  versionId: number,
): Promise<{ markdown: string; blocks: DocumentBlock[]; label: string } | null> {
  const row = await versionRow(documentId, versionId);
  if (!row) return null;
  // Converted off the event loop, like the document's own export (document-work).
  const exported = await runDocumentWork("exportStateWithBlocks", row.state, READ_BUDGET_MS);
  if (!exported.ok) throw new StateLoadError(exported.damage);
  return { markdown: exported.markdown, blocks: exported.blocks, label: row.label };
}

/**
 * Makes the live document equal to a version: saves a "Before restoring …" version, then applies
 * the difference to the sync server's live copy as one ordinary update (editLiveDocument), which
 * reaches every open copy and is stored like anyone's edit. Null when the document has no such version.
 */
export async function restoreVersion(
  documentId: string,
  versionId: number,
  userId: string,
): Promise<{ kept: number; written: number; removed: number } | null> {
  const row = await versionRow(documentId, versionId);
  if (!row) return null;
  const target = stateFromYjsUpdate(row.state);
  await saveVersion(documentId, {
    kind: "restore-before",
    label: `Before restoring "${row.label}"`,
    createdBy: userId,
  });
  return editLiveDocument(documentId, userId, (copy) => restoreContent(copy.editor, target));
}
