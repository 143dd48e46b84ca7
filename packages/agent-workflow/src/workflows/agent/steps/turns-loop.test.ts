import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { memoryAgentStore } from "../../../agent-store.ts";
import { openRunWriter } from "../../../live/run-writer.ts";
import { TEST_LIMITS } from "../test-harness.ts";
import { runCallId } from "./tool-round-trip.ts";
import { freshCheckpoint } from "./turns-checkpoint.ts";
import { continueTurns, repliesIn, SERVER_RESTARTED } from "./turns-loop.ts";

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

describe("a turns step resumed in its model phase", () => {
  it("ends the run, with the result whose claim marked the phase in its conversation", async () => {
    const runId = "run-claim-marked";
    const call = { toolCallId: "c1", toolName: "insertBlocks", input: { markdown: "Hi" } };
    const called: ModelMessage = {
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: "c1", toolName: "insertBlocks", input: { markdown: "Hi" } }],
    };
    // Saved while the call waited; the claim of its result then marked the model phase.
    const state = {
      ...freshCheckpoint(runId, 0, 3, 1),
      phase: "model" as const,
      messages: [called],
      pending: [{ call }],
    };
    await memoryAgentStore().claimToolResult({
      jti: "j1",
      runId,
      userId: "u1",
      documentId: "d1",
      toolCallId: runCallId(0, "c1"),
      bodyHash: "h",
      result: { ok: true, blockIds: ["b00000001"] },
    });
    const chunks: string[] = [];
    const writer = openRunWriter(
      runId,
      new WritableStream<string>({ write: (chunk) => void chunks.push(chunk) }).getWriter(),
    );
    const args = {
      runId,
      segment: 0,
      firstId: 0,
      turnIndex: 1,
      toolCallsBefore: 0,
      leading: [],
      modelId: "offline",
      system: "",
      messages: [],
      tools: ["insertBlocks"],
      audience: { runId, userId: "u1", documentId: "d1", deadlineMs: 20_000 },
      limits: TEST_LIMITS,
      runDeadline: Date.now() + 60_000,
    };

    const result = await continueTurns(args, state, true, writer);

    expect(result.end).toMatchObject({ status: "error", code: SERVER_RESTARTED });
    expect(result.messages).toEqual([
      called,
      {
        role: "tool",
        content: [
          expect.objectContaining({ type: "tool-result", toolCallId: "c1", toolName: "insertBlocks" }),
        ],
      },
    ]);
    expect(JSON.stringify(result.messages[1])).toContain("b00000001");
  });
});
