import type { RunEdits } from "@coauthor/types";
import { describe, expect, it } from "vitest";
import { runDiff } from "./run-diff";

const paragraph = (text: string) => ({
  type: "paragraph",
  version: 1,
  children: [{ type: "text", version: 1, text, format: 0, detail: 0, mode: "normal", style: "" }],
});

const edits: RunEdits = {
  beforeOrder: ["a", "b", "c", "d"],
  afterOrder: ["a", "new", "c", "d"],
  before: { b: paragraph("Drop me."), c: paragraph("The cat sat.") },
  after: { new: paragraph("Fresh line."), c: paragraph("The dog sat.") },
  inserted: ["new"],
  deleted: ["b"],
  changed: ["c"],
  moved: [],
};

describe("History's diff of a run", () => {
  it("lists the blocks a run added, removed and changed, in document order (what a block replaced first)", () => {
    expect(runDiff(edits)).toEqual([
      { id: "b", change: "removed", before: { type: "paragraph", text: "Drop me." } },
      { id: "new", change: "added", after: { type: "paragraph", text: "Fresh line." } },
      {
        id: "c",
        change: "changed",
        before: { type: "paragraph", text: "The cat sat." },
        after: { type: "paragraph", text: "The dog sat." },
      },
    ]);
  });

  it("puts a deleted first block at the start, and an older record's inserts at the end", () => {
    const { afterOrder: _, ...older } = {
      ...edits,
      deleted: ["a", "b"],
      before: { ...edits.before, a: paragraph("First.") },
    };
    expect(runDiff(older).map((block) => `${block.change}:${block.id}`)).toEqual([
      "removed:a",
      "removed:b",
      "changed:c",
      "added:new",
    ]);
  });
});
