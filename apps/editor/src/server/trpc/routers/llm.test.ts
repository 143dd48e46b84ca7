import { describe, expect, it } from "vitest";
import { createCallerFactory, createTRPCRouter } from "../init";
import { llmRouter } from "./llm";

const createCaller = createCallerFactory(createTRPCRouter({ llm: createTRPCRouter(llmRouter) }));

describe("llm router", () => {
  it("answers a signed-in caller with the run's tools and system prompt", async () => {
    const plan = await createCaller({ userId: "u1" }).llm.plan({
      documentId: "d",
      mode: "agent",
      prompt: "x",
    });
    expect(plan.tools).toContain("insertBlocks");
    expect(plan.system).toContain("insertBlocks:");
    expect((await createCaller({ userId: "u1" }).llm.models()).length).toBeGreaterThan(0);
  });

  it("refuses a caller without a session", async () => {
    const anonymous = createCaller({ userId: null });
    await expect(anonymous.llm.plan({ documentId: "d", mode: "agent", prompt: "x" })).rejects.toThrow(
      /no session/,
    );
    await expect(anonymous.llm.models()).rejects.toThrow(/no session/);
  });
});
