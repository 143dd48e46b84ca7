// The tools the server runs itself for a run, never a writer's tab: the comment tools (threads are
// written only there) and the version tools (versions are stored only there).
import type { z } from "zod";
import { COMMENT_TOOL_NAMES, commentToolSchemas } from "./comment-tools.ts";
import { VERSION_TOOL_NAMES, versionToolSchemas } from "./version-tools.ts";

export const SERVER_TOOL_NAMES = [...COMMENT_TOOL_NAMES, ...VERSION_TOOL_NAMES] as const;
export type ServerToolName = (typeof SERVER_TOOL_NAMES)[number];

/** True when tool `name` is one the server runs (a comment or version tool). */
export function isServerTool(name: string): name is ServerToolName {
  return (SERVER_TOOL_NAMES as readonly string[]).includes(name);
}

export const serverToolSchemas = { ...commentToolSchemas, ...versionToolSchemas } as const satisfies {
  [K in ServerToolName]: { input: z.ZodType; output: z.ZodType };
};
