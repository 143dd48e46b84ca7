import { describe, expect, it } from "vitest";
import { MAX_FACT_BLOCK_IDS, toolResultFacts } from "./tool-facts.ts";

describe("the facts a tool-result event carries", () => {
  it("counts what a write did and names its first blocks", () => {
    expect(toolResultFacts("insertBlocks", { ok: true, blockIds: ["a", "b"] })).toEqual({
      blockIds: ["a", "b"],
      count: 2,
    });
    expect(toolResultFacts("replaceText", { ok: true, replacements: 3, blockIds: ["a", "a2"] })).toEqual({
      blockIds: ["a", "a2"],
      count: 3,
    });
    expect(toolResultFacts("deleteBlocks", { ok: true, deleted: 2, blockIds: ["x", "y"] })).toEqual({
      blockIds: ["x", "y"],
      count: 2,
    });
  });

  it("keeps a read's page size and the document's length, never its text", () => {
    const blocks = [{ id: "a", type: "paragraph", markdown: "Secret words." }];
    const facts = toolResultFacts("readDocument", { ok: true, blocks, totalBlocks: 9, nextFromBlock: 1 });
    expect(facts).toEqual({ count: 1, totalBlocks: 9 });
    expect(JSON.stringify(facts)).not.toContain("Secret");
  });

  it("names each matched block once, and at most the first few", () => {
    const matches = Array.from({ length: 60 }, (_, i) => ({
      blockId: `b${Math.floor(i / 2)}`,
      start: 0,
      end: 1,
      text: "x",
    }));
    const facts = toolResultFacts("findText", { ok: true, matches, truncated: false });
    expect(facts?.count).toBe(60);
    expect(facts?.blockIds).toHaveLength(MAX_FACT_BLOCK_IDS);
    expect(facts?.blockIds?.slice(0, 2)).toEqual(["b0", "b1"]);
  });

  it("has none for a failure, a malformed result or an unknown tool", () => {
    expect(toolResultFacts("insertBlocks", { ok: false, code: "not-found", message: "no" })).toBeUndefined();
    expect(toolResultFacts("insertBlocks", { ok: true })).toBeUndefined();
    expect(toolResultFacts("summon", { ok: true, blockIds: [] })).toBeUndefined();
  });
});
