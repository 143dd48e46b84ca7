import { afterEach, describe, expect, it, vi } from "vitest";
import { log } from "./log.ts";

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.LOG_LEVEL;
});

describe("structured log", () => {
  it("writes one JSON line with the bound run ids, the fields and a serialized error", () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const run = log.child({ runId: "wrun_1" });
    run.info("tool call requested", { toolCallId: "c1", toolName: "readDocument" });
    run.error("resume failed", { toolCallId: "c1", error: new Error("boom") });

    const info = JSON.parse(String(out.mock.calls[0]?.[0]));
    expect(info).toMatchObject({
      level: "info",
      msg: "tool call requested",
      runId: "wrun_1",
      toolCallId: "c1",
      toolName: "readDocument",
    });
    expect(Date.parse(info.time)).not.toBeNaN();
    const error = JSON.parse(String(err.mock.calls[0]?.[0]));
    expect(error).toMatchObject({
      level: "error",
      runId: "wrun_1",
      error: { name: "Error", message: "boom" },
    });
  });

  it("drops lines below LOG_LEVEL", () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    process.env.LOG_LEVEL = "warn";
    log.info("hidden");
    expect(out).not.toHaveBeenCalled();
  });
});
