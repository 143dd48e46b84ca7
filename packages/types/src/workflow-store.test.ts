import { describe, expect, it } from "vitest";
import { localRunStreamsSchema, workflowRunIdSchema } from "./workflow-store.ts";

describe("workflow store shapes", () => {
  it("accepts a world run id and refuses anything that could leave a folder", () => {
    expect(workflowRunIdSchema.safeParse("wrun_01M859RZ18GSGXFTNWWTCNBPKW").success).toBe(true);
    for (const bad of [
      "wrun_../../etc",
      "wrun_01M859RZ18GSGXFTNWWTCNBPK",
      "run_01M859RZ18GSGXFTNWWTCNBPKW",
      "",
    ]) {
      expect(workflowRunIdSchema.safeParse(bad).success).toBe(false);
    }
  });

  it("reads a run's stream list only when every name is a plain file name part", () => {
    expect(
      localRunStreamsSchema.safeParse({ streams: ["strm_01M859RZ18GSGXFTNWWTCNBPKW_user"] }).success,
    ).toBe(true);
    expect(localRunStreamsSchema.safeParse({ streams: ["../x"] }).success).toBe(false);
  });
});
