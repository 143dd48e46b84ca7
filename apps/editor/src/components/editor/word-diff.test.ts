import { describe, expect, it } from "vitest";
import { aroundChanges, changedSpans, textChanges } from "./word-diff";

describe("word diff", () => {
  it("marks the words a change inserted and deleted", () => {
    expect(textChanges("The cat sat.", "The dog sat.")).toEqual([
      { text: "The ", change: "same" },
      { text: "cat", change: "removed" },
      { text: "dog", change: "added" },
      { text: " sat.", change: "same" },
    ]);
  });

  it("reads a change of several words as one, not word against word", () => {
    expect(textChanges("Costs were flat here.", "Costs rose by a tenth here.")).toEqual([
      { text: "Costs ", change: "same" },
      { text: "were flat", change: "removed" },
      { text: "rose by a tenth", change: "added" },
      { text: " here.", change: "same" },
    ]);
  });

  it("points at the deleted words in the old text and the inserted ones in the new", () => {
    const before = "Costs were flat against last year.";
    const after = "Costs rose by a tenth against last year.";
    const spans = changedSpans(textChanges(before, after));
    expect(spans?.removed.map(([start, end]) => before.slice(start, end))).toEqual(["were flat"]);
    expect(spans?.added.map(([start, end]) => after.slice(start, end))).toEqual(["rose by a tenth"]);
  });

  it("points at several changes apart, and at words only added or only removed", () => {
    const before = "one two three four five";
    const after = "one 2 three five six";
    const spans = changedSpans(textChanges(before, after));
    expect(spans?.removed.map(([start, end]) => before.slice(start, end))).toEqual(["two", "four"]);
    expect(spans?.added.map(([start, end]) => after.slice(start, end))).toEqual(["2", "six"]);
  });

  it("has nothing to point at for equal texts or texts that share no word", () => {
    expect(changedSpans(textChanges("Same words.", "Same words."))).toBeNull();
    expect(changedSpans(textChanges("Entirely old.", "Brand new!"))).toBeNull();
    expect(changedSpans(textChanges("", "Added from nothing."))).toBeNull();
  });

  it("cuts long unchanged stretches around the changes, keeping every changed word", () => {
    const long = "word ".repeat(40);
    const parts = aroundChanges(textChanges(`${long}old ${long}end`, `${long}new ${long}end`), 10);
    expect(parts.filter((part) => part.change !== "same").map((part) => part.text)).toEqual(["old", "new"]);
    expect(parts[0]?.text).toMatch(/^…(word )+$/);
    expect(parts.every((part) => part.text.length <= 25)).toBe(true);
  });
});
