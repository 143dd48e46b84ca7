import { describe, expect, it } from "vitest";
import { conversationReducer, describeOutcome, describeStatus } from "./conversation";

describe("a tool call in the conversation", () => {
  const started = conversationReducer([], {
    type: "tool-start",
    id: "r:c1",
    toolName: "deleteBlocks",
    input: { blockIds: ["a"] },
    context: { a: { type: "paragraph", text: "Gone." } },
  });

  it("keeps the server's facts when this tab's own report of the call arrives after them", () => {
    const fromServer = conversationReducer(started, {
      type: "tool-settled",
      id: "r:c1",
      ok: true,
      facts: { count: 1, blockIds: ["a"] },
    });
    const fromTab = conversationReducer(fromServer, { type: "tool-settled", id: "r:c1", ok: true });
    expect(fromTab).toEqual([
      {
        kind: "tool",
        id: "r:c1",
        toolName: "deleteBlocks",
        input: { blockIds: ["a"] },
        context: { a: { type: "paragraph", text: "Gone." } },
        status: "ok",
        facts: { count: 1, blockIds: ["a"] },
      },
    ]);
  });
});

describe("a run's outcome in words", () => {
  it("is the same for the panel's status line and a History line", () => {
    expect(describeStatus({ phase: "ended", outcome: { status: "cancelled" } })).toBe(
      describeOutcome("cancelled"),
    );
    const limit = "Stopped at the limit of 25 model turns.";
    expect(describeStatus({ phase: "ended", outcome: { status: "limit", summary: limit } })).toBe(
      describeOutcome("limit", limit),
    );
    expect(describeStatus({ phase: "ended", outcome: { status: "failed", reason: "model-error" } })).toBe(
      describeOutcome("failed", "model-error"),
    );
    expect(describeOutcome("done", "Done: the paragraph is at the end.")).toBe("Done");
  });
});
