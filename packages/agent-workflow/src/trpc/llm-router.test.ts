import { isWriteTool, toolNameSchema } from "@coauthor/types/tools";
import { describe, expect, it } from "vitest";
import { createAgentCaller } from "./index.ts";
import { selectTools } from "./llm-router.ts";

describe("planner", () => {
  it("gives an agent run every tool", () => {
    expect(selectTools("agent")).toEqual(toolNameSchema.options);
  });

  it("gives chat mode no tool that can change the document", () => {
    const tools = selectTools("chat");
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.filter(isWriteTool)).toEqual([]);
    expect(tools).not.toContain("insertBlocks");
  });

  it("answers through a server caller and refuses a caller without a user", async () => {
    const plan = await createAgentCaller({ userId: "u1" }).llm.plan({
      documentId: "d",
      mode: "agent",
      prompt: "x",
    });
    expect(plan.tools).toContain("insertBlocks");
    expect(plan.system).toContain("insertBlocks:");
    await expect(
      createAgentCaller({ userId: null }).llm.plan({ documentId: "d", mode: "agent", prompt: "x" }),
    ).rejects.toThrow(/no session/);
  });
});
