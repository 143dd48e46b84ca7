import type { RunEvent } from "@coauthor/types";
import { describe, expect, it } from "vitest";
import { createPrinter } from "./print.ts";

const base = { runId: "run1" };

function printed(events: RunEvent[]): string {
  let out = "";
  const printer = createPrinter((text) => {
    out += text;
  });
  for (const event of events) printer.print(event);
  printer.end();
  return out;
}

describe("createPrinter", () => {
  it("streams text and puts each tool call, result and the end on a line of its own", () => {
    const out = printed([
      { ...base, id: 0, type: "run-start", documentId: "doc1", mode: "agent", model: "offline" },
      { ...base, id: 1, type: "text-delta", messageId: "m", delta: "Adding " },
      { ...base, id: 2, type: "text-delta", messageId: "m", delta: "a paragraph." },
      { ...base, id: 3, type: "heartbeat", ts: 1 },
      {
        ...base,
        id: 4,
        type: "tool-call",
        toolCallId: "t1",
        toolName: "append_paragraph",
        input: { text: "Hi" },
        hookToken: "secret-hook-token",
        deadline: 0,
      },
      { ...base, id: 5, type: "tool-result", toolCallId: "t1", ok: true, summary: "added 1 paragraph" },
      { ...base, id: 6, type: "finish", status: "done" },
    ]);
    expect(out).toBe(
      [
        "· run run1 on document doc1 (offline)",
        "Adding a paragraph.",
        '→ append_paragraph {"text":"Hi"}',
        "✓ added 1 paragraph",
        "· finished: done",
        "",
      ].join("\n"),
    );
    expect(out).not.toContain("secret-hook-token");
  });

  it("ends text still in progress when the stream ends", () => {
    const out = printed([{ ...base, id: 0, type: "text-delta", messageId: "m", delta: "Half" }]);
    expect(out).toBe("Half\n");
  });

  it("prints the CLI's own line after the text in progress", () => {
    const lines: string[] = [];
    const printer = createPrinter((text) => lines.push(text));
    printer.print({ ...base, id: 0, type: "text-delta", messageId: "m", delta: "Half" });
    printer.note("· stopping the run…");
    expect(lines.join("")).toBe("Half\n· stopping the run…\n");
  });

  it("prints a fatal error apart from a recoverable one", () => {
    const out = printed([
      { ...base, id: 0, type: "error", code: "model_retry", message: "retrying", recoverable: true },
      { ...base, id: 1, type: "error", code: "model_failed", message: "gave up", recoverable: false },
    ]);
    expect(out).toBe("! model_retry: retrying\n✗ error model_failed: gave up\n");
  });
});
