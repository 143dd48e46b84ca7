import { describe, expect, it } from "vitest";
import { announcementOf } from "./run-announcements";

describe("what a screen reader hears of the conversation", () => {
  it("reads a finished answer once, whole", () => {
    expect(announcementOf({ kind: "assistant", id: "a", text: "Done: the paragraph is at the end." })).toBe(
      "Assistant: Done: the paragraph is at the end.",
    );
  });

  it("reads a tool step when it settles, in the sentence the conversation shows, with why it failed", () => {
    const insert = {
      kind: "tool" as const,
      id: "t",
      toolName: "insertBlocks",
      input: { markdown: "Four.", position: { at: "end" } },
      context: {},
    };
    expect(announcementOf({ ...insert, status: "running" })).toBeNull();
    expect(announcementOf({ ...insert, status: "ok", facts: { blockIds: ["b"], count: 1 } })).toBe(
      "Added 1 paragraph at the end",
    );
    const remove = { kind: "tool" as const, id: "d", toolName: "deleteBlocks", input: { blockIds: ["x"] } };
    const context = { x: { type: "paragraph", text: "Old line." } };
    expect(announcementOf({ ...remove, context, status: "failed", detail: "stale" })).toBe(
      "Could not delete 1 paragraph 'Old line.' — stale",
    );
  });

  it("does not read back the writer's own prompt", () => {
    expect(announcementOf({ kind: "user", id: "u", text: "count to 3" })).toBeNull();
  });
});
