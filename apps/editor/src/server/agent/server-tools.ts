import type { ServerToolCall } from "@coauthor/agent-workflow/server";
import { isCommentTool, isVersionTool } from "@coauthor/types";
import { runCommentTool } from "./comment-tools";
import { runVersionTool } from "./version-tools";

/** Runs a tool the server runs for a run (a comment or version tool); unknown names are a failure the model reads. */
export async function runServerTool(call: ServerToolCall): Promise<unknown> {
  if (isVersionTool(call.toolName)) return runVersionTool(call);
  if (isCommentTool(call.toolName)) return runCommentTool(call);
  return { ok: false, code: "unknown-tool", message: `no server tool named "${call.toolName}"` };
}
