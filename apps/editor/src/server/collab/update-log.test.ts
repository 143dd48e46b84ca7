import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  bindDocumentEditor,
  createDocumentEditor,
  exportMarkdown,
  runEditorTool,
  stateFromYjsUpdate,
  yjsUpdateFromMarkdown,
} from "@coauthor/tools";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The storage of Yjs documents on a real embedded database (PGlite in a throwaway folder).
const dataDir = mkdtempSync(join(tmpdir(), "coauthor-update-log-"));
process.env.COAUTHOR_DATA_DIR = dataDir;
const { getDb } = await import("@/server/db");
const { documents, documentUpdates, users } = await import("@/server/db/schema");
const { appendUpdate, COMPACT_AFTER_UPDATES, compactUpdateLog, loadDocumentState } = await import(
  "./update-log"
);

const markdownOf = (state: Uint8Array | null) => {
  if (!state) throw new Error("no state");
  return exportMarkdown(createDocumentEditor({ state: stateFromYjsUpdate(state) }));
};

async function insertDocument(values: { content?: unknown; yjsSnapshot?: Uint8Array }): Promise<string> {
  const db = await getDb();
  const id = crypto.randomUUID();
  await db.insert(documents).values({ id, ownerId: "owner", title: "T", ...values });
  return id;
}

beforeAll(async () => {
  const db = await getDb();
  await db.insert(users).values({ id: "owner", name: "Owner", email: "owner@example.test" });
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("update log", () => {
  it("converts a document saved before collaboration once, and every later load reads that conversion", async () => {
    const legacy = createDocumentEditor({ markdown: "# Old notes\n\nWritten before Yjs." })
      .getEditorState()
      .toJSON();
    const id = await insertDocument({ content: legacy });
    const first = await loadDocumentState(id);
    expect(markdownOf(first)).toBe("# Old notes\n\nWritten before Yjs.");
    const db = await getDb();
    const [row] = await db.select().from(documents).where(eq(documents.id, id));
    expect(row?.yjsSnapshot).toBeInstanceOf(Uint8Array);
    // The block ids of the old document survive the conversion.
    const ids = (state: { root: { children: unknown[] } }) =>
      state.root.children.map((child) => (child as { $?: { blockId?: string } }).$?.blockId);
    expect(ids(stateFromYjsUpdate(first as Uint8Array))).toEqual(ids(legacy));
    // A second load is byte for byte the same history (no second conversion).
    expect(await loadDocumentState(id)).toEqual(first);
  });

  it("a document that never had content loads as one empty paragraph; a missing one as null", async () => {
    const id = await insertDocument({});
    expect(markdownOf(await loadDocumentState(id))).toBe("");
    expect(await loadDocumentState("no-such-document")).toBeNull();
  });

  it("appends updates and folds them into the snapshot without changing the document", async () => {
    const seed = yjsUpdateFromMarkdown("Base.");
    const id = await insertDocument({ yjsSnapshot: seed });
    // Every update of a bound editor goes to the log, as the sync server's onChange does.
    const bound = bindDocumentEditor(seed);
    const appended: Promise<void>[] = [];
    bound.doc.on("update", (update: Uint8Array) => appended.push(appendUpdate(id, update)));
    for (let n = 1; n <= COMPACT_AFTER_UPDATES; n++) {
      await runEditorTool(bound.editor, "insertBlocks", { markdown: `Line ${n}.`, position: { at: "end" } });
    }
    await Promise.all(appended);
    const before = markdownOf(await loadDocumentState(id));
    expect(before.split("\n\n")).toHaveLength(COMPACT_AFTER_UPDATES + 1);

    expect(await compactUpdateLog(id)).toBeGreaterThanOrEqual(COMPACT_AFTER_UPDATES);
    const db = await getDb();
    expect(await db.select().from(documentUpdates).where(eq(documentUpdates.documentId, id))).toHaveLength(0);
    expect(markdownOf(await loadDocumentState(id))).toBe(before);
    // Below the threshold nothing is folded.
    expect(await compactUpdateLog(id)).toBe(0);
  });
});
