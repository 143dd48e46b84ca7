import { describe, expect, it } from "vitest";
import { parseRunLog } from "./run-log";

const line = (event: object) => JSON.stringify({ runId: "r", ...event });

describe("run event log", () => {
  it("joins consecutive deltas, describes each event, and counts invalid lines", () => {
    const ndjson = [
      line({ id: 0, type: "run-start", documentId: "d", mode: "agent", model: "offline", at: 1_000 }),
      line({ id: 1, type: "text-delta", messageId: "m", delta: "Hel" }),
      line({ id: 2, type: "text-delta", messageId: "m", delta: "lo." }),
      line({ id: 6, type: "text-delta", messageId: "m2", delta: "Next turn." }),
      "not json",
      line({ id: 3, type: "tool-result", toolCallId: "c", ok: false, summary: "unknown block" }),
      line({ id: 4, type: "bogus" }),
      line({ id: 5, type: "finish", status: "done", summary: "Hello.", at: 1_250 }),
      "",
    ].join("\n");
    const { lines, invalid } = parseRunLog(ndjson);
    expect(lines).toEqual([
      { id: 0, type: "run-start", text: "model offline", elapsedMs: 0 },
      { id: 1, type: "text-delta", text: "Hello." },
      { id: 6, type: "text-delta", text: "Next turn." },
      { id: 3, type: "tool-result", text: "failed: unknown block" },
      { id: 5, type: "finish", text: "done — Hello.", elapsedMs: 250 },
    ]);
    expect(invalid).toBe(2);
  });
});
