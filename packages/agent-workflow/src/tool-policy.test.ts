import { COMMENT_TOOL_NAMES, SERVER_TOOL_NAMES, VERSION_TOOL_NAMES } from "@coauthor/types";
import { isWriteTool, toolNameSchema } from "@coauthor/types/tools";
import { describe, expect, it } from "vitest";
import { selectTools, toolPolicy } from "./tool-policy.ts";

describe("tool policy", () => {
  it("gives an agent run every editor tool and the server's comment and version tools", () => {
    expect(selectTools("agent")).toEqual([...toolNameSchema.options, ...SERVER_TOOL_NAMES]);
    for (const name of [...COMMENT_TOOL_NAMES, ...VERSION_TOOL_NAMES])
      expect(selectTools("agent")).toContain(name);
  });

  it("gives chat mode no tool that can change the document", () => {
    const tools = selectTools("chat");
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.filter(isWriteTool)).toEqual([]);
    expect(tools).not.toContain("insertBlocks");
    // Comments change the document's threads: not in chat mode either.
    for (const name of COMMENT_TOOL_NAMES) expect(tools).not.toContain(name);
  });

  it("describes each allowed tool in the system prompt", () => {
    const policy = toolPolicy("agent");
    expect(policy.tools).toContain("insertBlocks");
    expect(policy.system).toContain("insertBlocks:");
    expect(policy.system).toMatch(/- readVersion: Read one version/);
    expect(toolPolicy("chat").system).not.toContain("insertBlocks:");
  });
});
