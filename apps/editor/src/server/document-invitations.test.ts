import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Invitations on a real embedded database (PGlite in a throwaway folder, migrated like the app's).
const dataDir = mkdtempSync(join(tmpdir(), "coauthor-invitations-"));
process.env.COAUTHOR_DATA_DIR = dataDir;
const { getDb } = await import("@/server/db");
const schema = await import("@/server/db/schema");
const { acceptInvitations, listInvitations, revokeInvitation, upsertInvitation } = await import(
  "./document-invitations"
);

const memberships = async (userId: string) => {
  const db = await getDb();
  return db
    .select({ documentId: schema.documentMembers.documentId, role: schema.documentMembers.role })
    .from(schema.documentMembers)
    .where(eq(schema.documentMembers.userId, userId));
};

beforeAll(async () => {
  const db = await getDb();
  await db.insert(schema.users).values([
    { id: "owner", name: "Owner", email: "owner@example.test" },
    { id: "ada", name: "Ada", email: "ada@example.test" },
  ]);
  await db.insert(schema.documents).values([
    { id: "doc", ownerId: "owner", title: "T" },
    { id: "other", ownerId: "owner", title: "U" },
  ]);
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("pending invitations", () => {
  it("are stored lower-case, once per document and email (inviting again changes the role)", async () => {
    const first = await upsertInvitation("doc", " Ada@Example.TEST ", "viewer", "owner");
    const again = await upsertInvitation("doc", "ada@example.test", "editor", "owner");
    expect(again).toBe(first);
    expect(await listInvitations("doc")).toEqual([
      expect.objectContaining({ id: first, email: "ada@example.test", role: "editor" }),
    ]);
  });

  it("give an unverified account nothing, and stay pending", async () => {
    const accepted = await acceptInvitations({ id: "ada", email: "ada@example.test", emailVerified: false });
    expect(accepted).toBe(0);
    expect(await memberships("ada")).toEqual([]);
    expect(await listInvitations("doc")).toHaveLength(1);
  });

  it("become memberships once the email is verified, and are gone", async () => {
    await upsertInvitation("other", "ada@example.test", "viewer", "owner");
    const accepted = await acceptInvitations({ id: "ada", email: "ADA@example.test", emailVerified: true });
    expect(accepted).toBe(2);
    expect(await memberships("ada")).toEqual(
      expect.arrayContaining([
        { documentId: "doc", role: "editor" },
        { documentId: "other", role: "viewer" },
      ]),
    );
    expect(await listInvitations("doc")).toEqual([]);
    expect(await listInvitations("other")).toEqual([]);
  });

  it("can be revoked only on their own document", async () => {
    const id = await upsertInvitation("doc", "bob@example.test", "viewer", "owner");
    expect(await revokeInvitation("other", id)).toBe(false);
    expect(await revokeInvitation("doc", id)).toBe(true);
    expect(await listInvitations("doc")).toEqual([]);
  });
});
