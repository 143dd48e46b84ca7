import { describe, expect, it } from "vitest";
import { announcementOf } from "./run-announcements";

describe("what a screen reader hears of the conversation", () => {
  it("reads a finished answer once, whole", () => {
    expect(announcementOf({ kind: "assistant", id: "a", text: "Done: the paragraph is at the end." })).toBe(
      "Assistant: Done: the paragraph is at the end.",
    );
  });

  it("reads a tool step when it settles, with why it failed", () => {
    expect(announcementOf({ kind: "tool", id: "t", toolName: "insertBlocks", status: "running" })).toBeNull();
    expect(announcementOf({ kind: "tool", id: "t", toolName: "insertBlocks", status: "ok" })).toBe(
      "Step done: insertBlocks",
    );
    expect(
      announcementOf({ kind: "tool", id: "t", toolName: "deleteBlocks", status: "failed", detail: "stale" }),
    ).toBe("Step failed: deleteBlocks — stale");
  });

  it("does not read back the writer's own prompt", () => {
    expect(announcementOf({ kind: "user", id: "u", text: "count to 3" })).toBeNull();
  });
});
