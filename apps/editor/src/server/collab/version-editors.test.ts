import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { yjsUpdateFromMarkdown } from "@coauthor/tools";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Who changed a document since its last version, on a real embedded database (PGlite in a
// throwaway folder): what this instance noted, and what another instance wrote to the table.
const dataDir = mkdtempSync(join(tmpdir(), "coauthor-version-editors-"));
process.env.COAUTHOR_DATA_DIR = dataDir;
const { getDb } = await import("@/server/db");
const { documentEditors, documents, users } = await import("@/server/db/schema");
const { insertVersion } = await import("@/server/version-store");
const { flushVersionEditors, noteVersionEditor, takeVersionEditors } = await import("./version-editors");

const people = ["owner", "bob", "carol"];

beforeAll(async () => {
  const db = await getDb();
  await db.insert(users).values(people.map((id) => ({ id, name: id, email: `${id}@example.test` })));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function newDocument(): Promise<string> {
  const db = await getDb();
  const id = crypto.randomUUID();
  await db
    .insert(documents)
    .values({ id, ownerId: "owner", title: "T", yjsSnapshot: yjsUpdateFromMarkdown("Text.") });
  return id;
}

async function takeAndSave(documentId: string): Promise<string[]> {
  const editors = await takeVersionEditors(documentId);
  await insertVersion({
    documentId,
    kind: "named",
    label: "V",
    createdBy: "owner",
    state: yjsUpdateFromMarkdown("Text."),
    ...editors,
  });
  return editors.editedBy;
}

describe("the people a version names", () => {
  it("names who edited through this instance just before, at once, and nobody again after the version", async () => {
    const documentId = await newDocument();
    noteVersionEditor(documentId, "bob");
    noteVersionEditor(documentId, "bob");
    // Taken at once, before the noted edits were written on their own.
    expect(await takeAndSave(documentId)).toEqual(["bob"]);
    expect(await takeAndSave(documentId)).toEqual([]);
    noteVersionEditor(documentId, "owner");
    expect(await takeAndSave(documentId)).toEqual(["owner"]);
  });

  it("names who edited through another instance (their row in the table), and only on their document", async () => {
    const documentId = await newDocument();
    const other = await newDocument();
    await takeAndSave(documentId);
    // Another instance wrote Carol's edit after the version (its row takes the next number).
    const db = await getDb();
    await db.insert(documentEditors).values({ documentId, userId: "carol" });
    noteVersionEditor(other, "bob");
    expect(await takeAndSave(documentId)).toEqual(["carol"]);
    expect(await takeAndSave(other)).toEqual(["bob"]);
  });

  it("leaves out a document deleted since its edit was noted, and still writes the others", async () => {
    const gone = await newDocument();
    const kept = await newDocument();
    noteVersionEditor(gone, "bob");
    noteVersionEditor(kept, "bob");
    const db = await getDb();
    await db.delete(documents).where(eq(documents.id, gone));
    // One write for both, as the timer makes it: it neither fails nor drops the kept document's row.
    await flushVersionEditors();
    const rows = await db.select().from(documentEditors).where(eq(documentEditors.documentId, kept));
    expect(rows.map((row) => row.userId)).toEqual(["bob"]);
  });

  it("writes noted edits on its own within a second, so any instance's version names them", async () => {
    const documentId = await newDocument();
    await takeAndSave(documentId);
    noteVersionEditor(documentId, "carol");
    const db = await getDb();
    await expect
      .poll(async () =>
        (await db.select().from(documentEditors)).filter((row) => row.documentId === documentId),
      )
      .toHaveLength(1);
  });
});
