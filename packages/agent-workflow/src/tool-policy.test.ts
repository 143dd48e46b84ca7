import { isWriteTool, toolNameSchema } from "@coauthor/types/tools";
import { describe, expect, it } from "vitest";
import { selectTools, toolPolicy } from "./tool-policy.ts";

describe("tool policy", () => {
  it("gives an agent run every tool", () => {
    expect(selectTools("agent")).toEqual(toolNameSchema.options);
  });

  it("gives chat mode no tool that can change the document", () => {
    const tools = selectTools("chat");
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.filter(isWriteTool)).toEqual([]);
    expect(tools).not.toContain("insertBlocks");
  });

  it("describes each allowed tool in the system prompt", () => {
    const policy = toolPolicy("agent");
    expect(policy.tools).toContain("insertBlocks");
    expect(policy.system).toContain("insertBlocks:");
    expect(toolPolicy("chat").system).not.toContain("insertBlocks:");
  });
});
