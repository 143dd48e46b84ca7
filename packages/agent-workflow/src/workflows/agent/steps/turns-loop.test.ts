import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { repliesIn } from "./turns-loop.ts";

describe("a turns step's replies", () => {
  it("are the text of each assistant message that says anything, trimmed, in order", () => {
    const messages: ModelMessage[] = [
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "thinking, not said" },
          { type: "text", text: " Adding a " },
          { type: "text", text: "heading. " },
          { type: "tool-call", toolCallId: "c1", toolName: "insertBlocks", input: { markdown: "# A" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "insertBlocks",
            output: { type: "json", value: { ok: true } },
          },
        ],
      },
      // A turn of tool calls only, and one of blank text, say nothing.
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c2", toolName: "getDocument", input: {} }],
      },
      { role: "assistant", content: [{ type: "text", text: "  \n" }] },
      { role: "user", content: "not the model's" },
      // A wrap-up is saved as plain text.
      { role: "assistant", content: "Done: one heading.\n" },
    ];
    expect(repliesIn(messages)).toEqual(["Adding a heading.", "Done: one heading."]);
  });
});
