import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { YJS_ROOT_NAME, yjsUpdateFromMarkdown } from "@coauthor/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";

// The server's reads of stored documents, on a real embedded database (PGlite in a throwaway folder).
const dataDir = mkdtempSync(join(tmpdir(), "coauthor-document-content-"));
process.env.COAUTHOR_DATA_DIR = dataDir;
const { getDb } = await import("@/server/db");
const { documents, users } = await import("@/server/db/schema");
const { appendUpdate } = await import("./update-log");
const { readDocumentMarkdown } = await import("./document-content");
const { DocumentDamagedError } = await import("./document-health");

beforeAll(async () => {
  const db = await getDb();
  await db.insert(users).values({ id: "owner", name: "Owner", email: "owner@example.test" });
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("readDocumentMarkdown", () => {
  it("reads a stored document, and answers a damaged one with DocumentDamagedError, not a crash", async () => {
    const db = await getDb();
    const id = crypto.randomUUID();
    const snapshot = yjsUpdateFromMarkdown("Intact text.");
    await db.insert(documents).values({ id, ownerId: "owner", title: "T", yjsSnapshot: snapshot });
    expect(await readDocumentMarkdown(id)).toBe("Intact text.");

    // Content from before the door checked node types: a node no editor can build.
    const doc = new Y.Doc();
    Y.applyUpdate(doc, snapshot);
    const before = Y.encodeStateVector(doc);
    const block = new Y.XmlText();
    doc.get(YJS_ROOT_NAME, Y.XmlText).insertEmbed(0, block);
    block.setAttribute("__type", "script-runner");
    await appendUpdate(id, Y.encodeStateAsUpdate(doc, before));
    await expect(readDocumentMarkdown(id)).rejects.toBeInstanceOf(DocumentDamagedError);
  });
});
