import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bindDocumentEditor, runEditorTool, YJS_ROOT_NAME, yjsUpdateFromMarkdown } from "@coauthor/tools";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";

// Keeping a document's last good state and restoring it, on a real embedded database (PGlite in a
// throwaway folder).
const dataDir = mkdtempSync(join(tmpdir(), "coauthor-document-restore-"));
process.env.COAUTHOR_DATA_DIR = dataDir;
const { getDb } = await import("@/server/db");
const { damagedDocumentCopies, documents, documentUpdates, users } = await import("@/server/db/schema");
const { appendUpdate, compactUpdateLog, loadDocumentState } = await import("./update-log");
const { readDocumentMarkdown } = await import("./document-content");
const { DocumentDamagedError, documentDamage, keepLastGood, stateLoads } = await import("./document-health");
const { lastGoodMarkdown, lastGoodState, restoreLastGood } = await import("./document-restore");
const { insertVersion } = await import("@/server/version-store");

/** A document whose snapshot holds `markdown`, kept as its last good state at `at` (when given). */
async function insertDocument(markdown: string, at?: Date): Promise<{ id: string; seed: Uint8Array }> {
  const db = await getDb();
  const id = crypto.randomUUID();
  const seed = yjsUpdateFromMarkdown(markdown);
  await db.insert(documents).values({ id, ownerId: "owner", title: "T", yjsSnapshot: seed });
  if (at) await keepLastGood(id, seed, at);
  return { id, seed };
}

/** An update adding a node of a type no editor knows, as a buggy client or a bad write would store it. */
function unknownNodeUpdate(state: Uint8Array): Uint8Array {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  const before = Y.encodeStateVector(doc);
  const block = new Y.XmlText();
  doc.get(YJS_ROOT_NAME, Y.XmlText).insertEmbed(0, block);
  block.setAttribute("__type", "script-runner");
  return Y.encodeStateAsUpdate(doc, before);
}

/** Appends `count` real edits (paragraphs "Line n.") to the document's log, as the sync server does. */
async function appendEdits(id: string, state: Uint8Array, count: number): Promise<void> {
  const bound = bindDocumentEditor(state);
  const appended: Promise<void>[] = [];
  bound.doc.on("update", (update: Uint8Array) => appended.push(appendUpdate(id, update)));
  for (let n = 1; n <= count; n++) {
    await runEditorTool(bound.editor, "insertBlocks", { markdown: `Line ${n}.`, position: { at: "end" } });
  }
  await Promise.all(appended);
  bound.dispose();
}

async function rowOf(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(documents).where(eq(documents.id, id));
  if (!row) throw new Error(`no document ${id}`);
  return row;
}

beforeAll(async () => {
  const db = await getDb();
  await db.insert(users).values({ id: "owner", name: "Owner", email: "owner@example.test" });
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the last good state", () => {
  it("a state loads only when Yjs decodes it and the editor builds every node", async () => {
    const seed = yjsUpdateFromMarkdown("# Title\n\nText.");
    expect(await stateLoads(seed)).toBe(true);
    expect(await stateLoads(Y.mergeUpdates([seed, unknownNodeUpdate(seed)]))).toBe(false);
    expect(await stateLoads(new Uint8Array([0xff, 0x13, 0x37, 0x00, 0x42]))).toBe(false);
  });

  it("compaction keeps the folded state as the last good one when it loads, and not when it does not", async () => {
    const { id, seed } = await insertDocument("Base.", new Date(Date.now() - 60_000));
    await appendEdits(id, seed, 3);
    expect(await compactUpdateLog(id, true)).toBeGreaterThanOrEqual(3);
    const compacted = await rowOf(id);
    expect(compacted.lastGoodSnapshot).toEqual(compacted.yjsSnapshot);
    expect(compacted.lastGoodAt?.getTime()).toBeGreaterThan(Date.now() - 60_000);

    // A bad write lands in the log; folding it makes a snapshot that does not load.
    await appendUpdate(id, unknownNodeUpdate(compacted.yjsSnapshot as Uint8Array));
    expect(await compactUpdateLog(id, true)).toBe(1);
    const damaged = await rowOf(id);
    expect(damaged.yjsSnapshot).not.toEqual(compacted.yjsSnapshot);
    expect(damaged.lastGoodSnapshot).toEqual(compacted.lastGoodSnapshot);
    expect(damaged.lastGoodAt).toEqual(compacted.lastGoodAt);
  });

  it("an older state never replaces a newer last good one", async () => {
    const { id } = await insertDocument("First.", new Date());
    const newer = await rowOf(id);
    await keepLastGood(id, yjsUpdateFromMarkdown("Older."), new Date(Date.now() - 60_000));
    expect((await rowOf(id)).lastGoodSnapshot).toEqual(newer.lastGoodSnapshot);
  });
});

describe("a damaged document", () => {
  it("is reported (marked on its row) when Yjs cannot merge its log, and chat's read answers DocumentDamagedError", async () => {
    const { id } = await insertDocument("Fine.", new Date());
    expect(await documentDamage(id)).toMatchObject({ damaged: false });
    await appendUpdate(id, new Uint8Array([0xff, 0xff, 0xff, 0x01, 0x02, 0x03]));
    await expect(loadDocumentState(id)).rejects.toBeInstanceOf(DocumentDamagedError);
    await expect(readDocumentMarkdown(id)).rejects.toBeInstanceOf(DocumentDamagedError);
    expect(await documentDamage(id)).toMatchObject({ damaged: true });
  });

  it("is restored to its last good state: the log is cleared, the damaged bytes kept, and it reads again", async () => {
    const { id, seed } = await insertDocument("Good words.", new Date());
    const garbage = new Uint8Array([0xff, 0xfe, 0x00, 0x13, 0x37]);
    const unknown = unknownNodeUpdate(seed);
    await appendUpdate(id, unknown);
    await appendUpdate(id, garbage);
    await expect(readDocumentMarkdown(id)).rejects.toBeInstanceOf(DocumentDamagedError);

    const outcome = await restoreLastGood(id);
    expect(outcome).toMatchObject({ ok: true });
    expect(await readDocumentMarkdown(id)).toBe("Good words.");
    expect(await documentDamage(id)).toMatchObject({ damaged: false });
    const db = await getDb();
    expect(await db.select().from(documentUpdates).where(eq(documentUpdates.documentId, id))).toEqual([]);
    // What was replaced is kept byte for byte, in log order.
    const [copy] = await db
      .select()
      .from(damagedDocumentCopies)
      .where(eq(damagedDocumentCopies.documentId, id));
    expect(copy?.snapshot).toEqual(seed);
    expect(copy?.updates.map((entry) => new Uint8Array(Buffer.from(entry, "base64")))).toEqual([
      unknown,
      garbage,
    ]);
    // A second restore finds nothing damaged and changes nothing.
    expect(await restoreLastGood(id)).toEqual({ ok: false, refusal: "not-damaged" });
    expect(
      await db.select().from(damagedDocumentCopies).where(eq(damagedDocumentCopies.documentId, id)),
    ).toHaveLength(1);
  });

  it("with no last good state is refused and left as it is", async () => {
    const { id } = await insertDocument("Never checked.");
    const bad = new Uint8Array([0xff, 0xff, 0xff, 0x09]);
    await appendUpdate(id, bad);
    await expect(readDocumentMarkdown(id)).rejects.toBeInstanceOf(DocumentDamagedError);
    expect(await restoreLastGood(id)).toEqual({ ok: false, refusal: "nothing-to-restore" });
    const db = await getDb();
    const log = await db.select().from(documentUpdates).where(eq(documentUpdates.documentId, id));
    expect(log.map((entry) => entry.update)).toEqual([bad]);
    expect(await restoreLastGood("no-such-document")).toEqual({ ok: false, refusal: "missing" });
  });

  it("goes back to its newest version that reads when that is newer than the kept state; one that does not read is skipped", async () => {
    const { id, seed } = await insertDocument("Kept state.", new Date(Date.now() - 60_000));
    const good = await insertVersion({
      documentId: id,
      kind: "named",
      label: "Good draft",
      createdBy: "owner",
      state: yjsUpdateFromMarkdown("Good draft words."),
    });
    // Taken of a copy that already held the damage: newer, and it does not read.
    await insertVersion({
      documentId: id,
      kind: "edits",
      label: "Edits by Owner",
      createdBy: "owner",
      state: Y.mergeUpdates([seed, unknownNodeUpdate(seed)]),
    });
    await appendUpdate(id, unknownNodeUpdate(seed));
    await expect(readDocumentMarkdown(id)).rejects.toBeInstanceOf(DocumentDamagedError);

    expect(await lastGoodState(id)).toMatchObject({ versionId: good, label: "Good draft" });
    expect(await lastGoodMarkdown(id)).toBe("Good draft words.");
    // The kept state is still there to name: no version, no label.
    expect(await lastGoodState(id, 999_999)).toBeNull();
    expect(await restoreLastGood(id)).toMatchObject({ ok: true });
    expect(await readDocumentMarkdown(id)).toBe("Good draft words.");
  });

  it("with only versions older than the kept state goes back to the kept state", async () => {
    const { id, seed } = await insertDocument("Kept state.");
    const older = await insertVersion({
      documentId: id,
      kind: "named",
      label: "Older draft",
      createdBy: "owner",
      state: yjsUpdateFromMarkdown("Older draft."),
    });
    await keepLastGood(id, seed, new Date(Date.now() + 1_000));
    await appendUpdate(id, unknownNodeUpdate(seed));
    await expect(readDocumentMarkdown(id)).rejects.toBeInstanceOf(DocumentDamagedError);
    expect(await lastGoodState(id)).toMatchObject({ versionId: null, label: null });
    expect(await lastGoodMarkdown(id)).toBe("Kept state.");
    // Named, the older version is restored instead.
    expect(await lastGoodMarkdown(id, older ?? undefined)).toBe("Older draft.");
    expect(await restoreLastGood(id, older ?? undefined)).toMatchObject({ ok: true });
    expect(await readDocumentMarkdown(id)).toBe("Older draft.");
  });
});
