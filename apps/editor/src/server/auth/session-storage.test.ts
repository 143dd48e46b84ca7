import { describe, expect, it } from "vitest";
import { memoryStorage } from "./session-storage";

describe("the in-memory session storage", () => {
  it("keeps, reads and deletes values; getAndDelete takes a value once", async () => {
    const storage = memoryStorage(10);
    await storage.set("session-token", '{"userId":"u1"}', 60);
    expect(await storage.get("session-token")).toBe('{"userId":"u1"}');
    expect(await storage.getAndDelete("session-token")).toBe('{"userId":"u1"}');
    expect(await storage.getAndDelete("session-token")).toBeNull();
    await storage.set("other", "x");
    await storage.delete("other");
    expect(await storage.get("other")).toBeNull();
  });

  it("forgets a value when its TTL has passed, and a counter keeps the TTL it was made with", async () => {
    let now = 1_000;
    const storage = memoryStorage(10, { now: () => now });
    await storage.set("session-token", "value", 30);
    expect(await storage.increment("counter", 10)).toBe(1);
    now += 9_000;
    expect(await storage.increment("counter", 10)).toBe(2);
    now += 1_001;
    // The window opened 10 s ago: the counter starts again, as Redis's INCR with EXPIRE does.
    expect(await storage.increment("counter", 10)).toBe(1);
    expect(await storage.get("session-token")).toBe("value");
    now += 20_000;
    expect(await storage.get("session-token")).toBeNull();
  });

  it("holds at most its number of entries, dropping the least recently used", async () => {
    const storage = memoryStorage(2);
    await storage.set("a", "1");
    await storage.set("b", "2");
    await storage.get("a");
    await storage.set("c", "3");
    expect(await storage.get("a")).toBe("1");
    expect(await storage.get("b")).toBeNull();
    expect(await storage.get("c")).toBe("3");
  });

  it("drops everything when it must drop a user's session list or revocation time", async () => {
    const storage = memoryStorage(3);
    await storage.set("active-sessions-u1", '[{"token":"t1"}]');
    await storage.set("t1", "session 1");
    await storage.set("t2", "session 2");
    // The least recently used key is the list: making room for a fourth drops it, and with it all.
    await storage.set("t3", "session 3");
    expect(await storage.get("active-sessions-u1")).toBeNull();
    expect(await storage.get("t1")).toBeNull();
    expect(await storage.get("t2")).toBeNull();
  });

  it("keeps a deleted session deleted when a copy read before is written back, while other keys come back", async () => {
    const storage = memoryStorage(10);
    await storage.set("session-token", "session", 3_600);
    const readBefore = await storage.get("session-token");
    await storage.delete("session-token");
    // A refresh that read the session before the sign-out writes it back after.
    await storage.set("session-token", String(readBefore), 3_600);
    expect(await storage.get("session-token")).toBeNull();
    // A user's session list and a verification value are written again after a delete.
    for (const key of ["active-sessions-u1", "verification:someone@example.test"]) {
      await storage.set(key, "first");
      await storage.delete(key);
      await storage.set(key, "second");
      expect(await storage.get(key)).toBe("second");
    }
  });
});
