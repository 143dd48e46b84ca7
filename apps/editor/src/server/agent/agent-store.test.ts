import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

// The agent's store on a real embedded database (PGlite in a throwaway folder, migrated like the
// app's): a turns step's progress (the plan decision is written once and kept by the segment's
// later saves) and tool results (claimed once, only while their run takes them).
process.env.COAUTHOR_DATA_DIR = mkdtempSync(join(tmpdir(), "coauthor-agent-store-"));
const { databaseAgentStore: store, forgetRunState } = await import("./agent-store");
const { getDb } = await import("@/server/db");
const schema = await import("@/server/db/schema");

const planning = { plan: { steps: ["outline", "write"] }, firstId: 3, nextId: 5 };

/** A save as a step asks for it: JSON text of its state, its new messages and maybe its decision. */
const progress = (state: unknown, from: number, messages: unknown[], decision?: unknown) => ({
  state: JSON.stringify(state),
  messages: { from, json: JSON.stringify(messages) },
  ...(decision === undefined ? {} : { planning: JSON.stringify(decision) }),
});

describe("saved progress", () => {
  it("keeps a segment's plan decision across the saves that leave it out", async () => {
    await store.saveProgress("run-a", 0, progress({ phase: "tools", n: 1 }, 0, [], planning));
    await store.saveProgress("run-a", 0, progress({ phase: "model", n: 2 }, 0, [{ role: "user" }]));
    await store.saveProgress("run-a", 0, progress({ phase: "tools", n: 3 }, 1, []));
    expect(await store.loadProgress("run-a")).toEqual({
      segment: 0,
      state: { phase: "tools", n: 3 },
      messages: [{ role: "user" }],
      planning,
    });
  });

  it("drops it when the run's next segment saves, and takes that segment's own", async () => {
    await store.saveProgress("run-b", 0, progress({ n: 1 }, 0, [], planning));
    await store.saveProgress("run-b", 1, progress({ n: 2 }, 0, [{ role: "assistant" }]));
    expect(await store.loadProgress("run-b")).toEqual({
      segment: 1,
      state: { n: 2 },
      messages: [{ role: "assistant" }],
    });
    const next = { plan: null, firstId: 9, nextId: 9 };
    await store.saveProgress("run-b", 2, progress({ n: 3 }, 0, [], next));
    await store.saveProgress("run-b", 2, progress({ n: 4 }, 0, []));
    expect(await store.loadProgress("run-b")).toMatchObject({ segment: 2, state: { n: 4 }, planning: next });
  });
  it("forgets an ended run's progress and messages, and no other run's", async () => {
    await store.saveProgress("run-c", 0, progress({ n: 1 }, 0, [{ role: "user" }, { role: "assistant" }]));
    await store.saveProgress("run-d", 0, progress({ n: 2 }, 0, [{ role: "user" }]));
    await forgetRunState("run-c");
    expect(await store.loadProgress("run-c")).toBeUndefined();
    const db = await getDb();
    const left = await db
      .select({ runId: schema.agentRunMessages.runId })
      .from(schema.agentRunMessages)
      .where(eq(schema.agentRunMessages.runId, "run-c"));
    expect(left).toEqual([]);
    expect(await store.loadProgress("run-d")).toEqual({
      segment: 0,
      state: { n: 2 },
      messages: [{ role: "user" }],
    });
    // Again (a second watcher of the same end): nothing left to delete, no failure.
    await forgetRunState("run-c");
  });
});

describe("tool result claims", () => {
  beforeAll(async () => {
    const db = await getDb();
    await db
      .insert(schema.users)
      .values(["owner", "editor", "viewer"].map((id) => ({ id, name: id, email: `${id}@example.test` })));
    await db.insert(schema.documents).values({ id: "doc", ownerId: "owner", title: "Shared" });
    await db.insert(schema.documentMembers).values([
      { documentId: "doc", userId: "editor", role: "editor" },
      { documentId: "doc", userId: "viewer", role: "viewer" },
    ]);
    const run = { documentId: "doc", prompt: "p", model: "offline" };
    await db.insert(schema.runs).values([
      { ...run, id: "by-owner", userId: "owner" },
      { ...run, id: "by-editor", userId: "editor" },
      { ...run, id: "by-viewer", userId: "viewer" },
      { ...run, id: "ended", userId: "owner", status: "cancelled" },
    ]);
  });
  const writerOf: Record<string, string> = { "by-editor": "editor", "by-viewer": "viewer" };
  /** A claim as the run's token names it (its writer and document), or as `named` says. */
  const claim = (runId: string, jti: string, result: unknown = { ok: true }, named = {}) =>
    store.claimToolResult({
      jti,
      runId,
      userId: writerOf[runId] ?? "owner",
      documentId: "doc",
      toolCallId: "c1",
      bodyHash: JSON.stringify(result),
      result,
      ...named,
    });
  const stored = async (jti: string) =>
    (await getDb()).select().from(schema.toolCallResults).where(eq(schema.toolCallResults.jti, jti));

  it("records a running run's result for its owner or an editor: once, a replay changing nothing", async () => {
    expect(await claim("by-owner", "t1")).toBe("claimed");
    expect(await claim("by-editor", "t2", { ok: true, n: 2 })).toBe("claimed");
    expect(await store.getToolResult("by-editor", "c1")).toEqual({ result: { ok: true, n: 2 } });
    expect(await claim("by-owner", "t1")).toBe("replay");
    expect(await claim("by-owner", "t1", { ok: false })).toBe("conflict");
    expect(await store.getToolResult("by-owner", "c1")).toEqual({ result: { ok: true } });
  });

  it("refuses a run that ended, or whose writer may no longer edit, and stores nothing", async () => {
    expect(await claim("ended", "t3")).toBe("refused");
    expect(await claim("by-viewer", "t4")).toBe("refused");
    expect(await claim("no-such-run", "t5")).toBe("refused");
    // A token whose claims name another writer or document than its run's.
    expect(await claim("by-owner", "t7", { ok: true }, { userId: "editor" })).toBe("refused");
    expect(await claim("by-owner", "t8", { ok: true }, { documentId: "elsewhere" })).toBe("refused");
    for (const jti of ["t3", "t4", "t5", "t7", "t8"]) expect(await stored(jti)).toEqual([]);
    // A role lost mid-run: the editor's next result is refused.
    await (await getDb())
      .update(schema.documentMembers)
      .set({ role: "viewer" })
      .where(eq(schema.documentMembers.userId, "editor"));
    expect(await claim("by-editor", "t6")).toBe("refused");
    // The same token's replay is still told apart from a new use, after the run ended too.
    await (await getDb()).update(schema.runs).set({ status: "done" }).where(eq(schema.runs.id, "by-owner"));
    expect(await claim("by-owner", "t1")).toBe("replay");
  });
});

describe("a claim that marks the model phase", () => {
  beforeAll(async () => {
    const db = await getDb();
    await db.insert(schema.users).values({ id: "marker", name: "marker", email: "marker@example.test" });
    await db.insert(schema.documents).values({ id: "marked-doc", ownerId: "marker", title: "Marked" });
    const run = { documentId: "marked-doc", userId: "marker", prompt: "p", model: "offline" };
    await db.insert(schema.runs).values([
      { ...run, id: "waiting" },
      { ...run, id: "finishing" },
      { ...run, id: "over", status: "done" },
    ]);
  });
  const claim = (runId: string, jti: string, toolCallId = "c1") =>
    store.claimToolResult({
      jti,
      runId,
      userId: "marker",
      documentId: "marked-doc",
      toolCallId,
      bodyHash: jti,
      result: { ok: true },
      markModelPhase: true,
    });
  const state = async (runId: string) => (await store.loadProgress(runId))?.state;

  it("marks progress waiting on tools, in the same write as the claim, and nothing else of it", async () => {
    await store.saveProgress("waiting", 0, progress({ phase: "tools", nextId: 7 }, 0, [{ role: "user" }]));
    expect(await claim("waiting", "m1")).toBe("claimed");
    expect(await store.getToolResult("waiting", "c1")).toEqual({ result: { ok: true } });
    expect(await store.loadProgress("waiting")).toEqual({
      segment: 0,
      state: { phase: "model", nextId: 7 },
      messages: [{ role: "user" }],
    });
  });

  it("leaves progress in another phase, and marks nothing for a replay or a refused claim", async () => {
    await store.saveProgress("finishing", 0, progress({ phase: "done" }, 0, []));
    expect(await claim("finishing", "m2")).toBe("claimed");
    expect(await state("finishing")).toEqual({ phase: "done" });

    await store.saveProgress("waiting", 0, progress({ phase: "tools", nextId: 9 }, 1, []));
    expect(await claim("waiting", "m1")).toBe("replay");
    expect(await state("waiting")).toEqual({ phase: "tools", nextId: 9 });

    await store.saveProgress("over", 0, progress({ phase: "tools" }, 0, []));
    expect(await claim("over", "m3")).toBe("refused");
    expect(await state("over")).toEqual({ phase: "tools" });
  });
});
