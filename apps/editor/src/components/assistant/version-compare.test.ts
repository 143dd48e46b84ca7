import type { DocumentBlock } from "@coauthor/tools";
import { describe, expect, it } from "vitest";
import { compareBlocks } from "./version-compare";

const block = (id: string, markdown: string, authorName?: string): DocumentBlock => ({
  id,
  markdown,
  authors: authorName ? [{ authorId: "a", authorName, runId: "r" }] : [],
});

const summary = (before: DocumentBlock[], after: DocumentBlock[]) =>
  compareBlocks(before, after).map((item) => `${item.change}:${item.block.markdown}`);

describe("compareBlocks", () => {
  it("tells kept, changed, added and removed blocks apart, in the newer order with removals where they were", () => {
    const before = [block("a", "One."), block("b", "Two."), block("c", "Three.")];
    const after = [
      block("a", "One."),
      block("c", "Three, changed."),
      block("d", "Four.", "Coauthor for Alice"),
    ];
    expect(summary(before, after)).toEqual([
      "same:One.",
      "removed:Two.",
      "changed:Three, changed.",
      "added:Four.",
    ]);
    const changed = compareBlocks(before, after)[2];
    expect(
      changed?.change === "changed" ? changed.parts.filter((part) => part.change !== "same") : [],
    ).toEqual([{ text: ", changed", change: "added" }]);
    expect(compareBlocks(before, after)[3]?.block.authors[0]?.authorName).toBe("Coauthor for Alice");
  });

  it("shows a moved block as a move, the fewest blocks counted as moved", () => {
    const before = [block("a", "A."), block("b", "B."), block("c", "C."), block("d", "D.")];
    const after = [block("d", "D, edited."), block("a", "A."), block("b", "B."), block("c", "C.")];
    const compared = compareBlocks(before, after);
    expect(compared.map((item) => item.change)).toEqual(["moved", "same", "same", "same"]);
    const moved = compared[0];
    expect(moved?.change === "moved" && moved.parts !== null).toBe(true);
  });

  it("puts a removed first block first, and matches no block without an id", () => {
    const before = [block("a", "Gone."), { id: null, markdown: "Old.", authors: [] }];
    const after = [{ id: null, markdown: "Old.", authors: [] }];
    expect(summary(before, after)).toEqual(["removed:Gone.", "removed:Old.", "added:Old."]);
  });
});
