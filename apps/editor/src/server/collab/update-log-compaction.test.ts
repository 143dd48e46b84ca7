import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { yjsUpdateFromMarkdown } from "@coauthor/tools";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";

// Compaction while an append is under way, on PostgreSQL (PGlite runs one statement at a time, so
// nothing can happen in between there; issue #35). Ids come from a sequence: an append takes its id
// before it commits, so one can hold a lower id than rows compaction reads and commit after the
// read (compaction's row lock, FOR NO KEY UPDATE, does not wait for the append's foreign-key check).
// Compaction deletes exactly the rows it read and folded, so such an update stays in the log; it
// deleted every id up to the last one read, and lost the update. With a stronger lock (FOR UPDATE)
// compaction waits for the append instead: the test commits it then, and expects the same.
// Needs the machine's PostgreSQL (TEST_DATABASE_URL, as the scale-out suite); none fails this file.
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const databaseName = `coauthor_compaction_${crypto.randomUUID().replaceAll("-", "")}`;
const databaseUrl = new URL(ADMIN_URL);
databaseUrl.pathname = `/${databaseName}`;
const dataDir = mkdtempSync(join(tmpdir(), "coauthor-compaction-"));
process.env.COAUTHOR_DATA_DIR = dataDir;
process.env.DATABASE_URL = databaseUrl.toString();

const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
let sql: postgres.Sql | undefined;

beforeAll(async () => {
  try {
    await admin.unsafe(`create database ${databaseName}`);
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${ADMIN_URL} (set TEST_DATABASE_URL); this test needs it`,
      {
        cause: error,
      },
    );
  }
  sql = postgres(databaseUrl.toString(), { max: 2, onnotice: () => undefined });
});
afterAll(async () => {
  await sql?.end();
  await admin.unsafe(`drop database if exists ${databaseName} with (force)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The text of the document's "t" (the updates here are plain Yjs text, not editor content). */
function textOf(state: Uint8Array | null): string {
  const doc = new Y.Doc();
  if (state) Y.applyUpdate(doc, state);
  return doc.getText("t").toString();
}

/**
 * Resolves once compaction has read the document's log (its transaction idles while it folds),
 * waits for a lock (its row lock queued behind the append), or has already finished (a fast
 * machine folds before a poll sees it): in every case the append may commit now.
 */
async function compactionReadOrWaiting(db: postgres.Sql, finished: () => boolean): Promise<string> {
  for (const started = Date.now(); Date.now() - started < 10_000; ) {
    if (finished()) return "finished";
    const [compaction] = await db<{ state: string; wait: string | null; query: string }[]>`
      select state, wait_event_type as wait, query from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()
        and (query like '%from "document_updates"%order by%' and state = 'idle in transaction'
          or query like '%from "documents"%for update%' and wait_event_type = 'Lock')`;
    if (compaction) return compaction.wait === "Lock" ? "waiting for the append" : "read the log";
  }
  throw new Error("compaction neither read the log nor waited for a lock within 10 s");
}

describe("compacting the update log while an append is under way", () => {
  it("keeps an update whose append took its id before the updates compaction read and committed after", async () => {
    if (!sql) throw new Error("no database");
    const { getDb } = await import("@/server/db");
    const { documents, users } = await import("@/server/db/schema");
    const { compactUpdateLog, loadDocumentState } = await import("./update-log");
    const db = await getDb();
    await db.insert(users).values({ id: "owner", name: "Owner", email: "owner@example.test" });
    const documentId = crypto.randomUUID();
    await db
      .insert(documents)
      .values({ id: documentId, ownerId: "owner", title: "T", yjsSnapshot: yjsUpdateFromMarkdown("Base.") });

    // A writer's edits, one update each, each after the one before (a long log: folding it takes a
    // moment). Every later one depends on the first: were it lost, none of them could be read.
    const doc = new Y.Doc();
    const text = doc.getText("t");
    const updates: Uint8Array[] = [];
    doc.on("update", (update: Uint8Array) => updates.push(update));
    for (let n = 0; n < 2_000; n++) text.insert(text.length, `${n}:${"w".repeat(500)};`);
    const written = text.toString();

    // The first update's append takes the lowest id and commits last: after every other one, and
    // after compaction has begun.
    const appending = await sql.reserve();
    await appending`begin`;
    await appending`insert into document_updates (document_id, "update") values (${documentId}, ${updates[0] as Uint8Array})`;
    const rest = updates.slice(1).map((update) => ({ document_id: documentId, update }));
    await sql`insert into document_updates ${sql(rest)}`;
    let compacted = false;
    const compacting = compactUpdateLog(documentId, true).finally(() => {
      compacted = true;
    });
    const when = await compactionReadOrWaiting(sql, () => compacted);
    await appending`commit`;
    appending.release();
    await compacting;

    expect(textOf(await loadDocumentState(documentId)), `committed when compaction had ${when}`).toBe(
      written,
    );
  });
});
