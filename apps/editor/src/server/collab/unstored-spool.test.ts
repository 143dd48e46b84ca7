import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { log } from "@coauthor/agent-workflow";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { replaySpool, spoolUnstored } from "./unstored-spool";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "coauthor-spool-"));
  vi.spyOn(log, "info").mockImplementation(() => undefined);
  vi.spyOn(log, "warn").mockImplementation(() => undefined);
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
  vi.restoreAllMocks();
});

describe("updates a stop could not store", () => {
  it("are written per document and appended at the next start, retried until the database takes them", async () => {
    spoolUnstored(
      new Map([
        ["doc/1", new Uint8Array([1, 2, 3])],
        ["doc-2", new Uint8Array([4])],
      ]),
      folder,
    );
    expect(readdirSync(folder)).toHaveLength(2);
    let refusals = 2;
    const appended: Array<[string, number[]]> = [];
    await replaySpool({
      folder,
      retryMs: 1,
      append: async (documentId, update) => {
        if (refusals-- > 0) throw new Error("connect ECONNREFUSED");
        appended.push([documentId, [...update]]);
      },
    });
    expect(appended.sort()).toEqual([
      ["doc-2", [4]],
      ["doc/1", [1, 2, 3]],
    ]);
    expect(readdirSync(folder)).toEqual([]);
  });

  it("drops the updates of a document deleted meanwhile, and a write a stop did not finish", async () => {
    spoolUnstored(new Map([["gone", new Uint8Array([9])]]), folder);
    writeFileSync(join(folder, "doc-3.1-1.yjs.partial"), new Uint8Array([7]));
    const missing = Object.assign(new Error("insert failed"), {
      cause: Object.assign(new Error("violates foreign key constraint"), { code: "23503" }),
    });
    await replaySpool({
      folder,
      append: async () => {
        throw missing;
      },
    });
    expect(readdirSync(folder)).toEqual([]);
  });

  it("has nothing to do when no stop left anything", async () => {
    const append = vi.fn(async () => undefined);
    await replaySpool({ folder: join(folder, "never-made"), append });
    expect(append).not.toHaveBeenCalled();
    expect(existsSync(join(folder, "never-made"))).toBe(false);
  });
});
