// How the offline demo model plays the agents of a pipeline, deterministically: an agent that may
// write does the writer's task (the offline script), one that may only read reads the document and
// reports on it, and a declared output is filled from its schema — every boolean is false in the
// first round and true from the second, so a critic approves on the second round.

import { failed, plainText, readSoFar, type ScriptedTurn, type SeenToolResult } from "./offline-reading.ts";
import { PIPELINE_AGENT_MARKER } from "./prompt-markers.ts";

/** The pipeline agent at work and its round (from the system prompt), if any. */
export function pipelineAgentOf(system: string): { agent: string; round: number } | undefined {
  const line = system.split("\n").find((text) => text.startsWith(PIPELINE_AGENT_MARKER));
  const match = line?.slice(PIPELINE_AGENT_MARKER.length).match(/^\s*(\S+) \(round (\d+)\)/);
  if (!match?.[1]) return undefined;
  return { agent: match[1], round: Number(match[2]) };
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
};

/** A value for `schema` as the offline agent `agent` answers it in `round`. */
export function offlineOutput(schema: unknown, agent: string, round: number): unknown {
  const node = (typeof schema === "object" && schema !== null ? schema : {}) as JsonSchema;
  const type = Array.isArray(node.type) ? node.type.find((t) => t !== "null") : node.type;
  if (node.enum && node.enum.length > 0) return node.enum[0];
  switch (type) {
    case "boolean":
      return round >= 2;
    case "number":
    case "integer":
      return round;
    case "string":
      return round >= 2
        ? `Round ${round}: ${agent} is satisfied.`
        : `Round ${round}: ${agent} asks for another pass.`;
    case "array":
      return [];
    default:
      return Object.fromEntries(
        Object.entries(node.properties ?? {}).map(([name, field]) => [
          name,
          offlineOutput(field, agent, round),
        ]),
      );
  }
}

/**
 * An offline agent that may comment but not write (the "Review with comments" reviewer): reads the
 * document, then comments on the first sentence of its first paragraph, once.
 */
export function offlineReviewTurn(seen: SeenToolResult[]): ScriptedTurn {
  if (!seen.some((result) => result.toolName === "readDocument")) {
    return { text: "Reading the document to review it.", toolCall: { toolName: "readDocument", input: {} } };
  }
  const { blocks, readOn } = readSoFar(seen);
  if (readOn && !seen.some((result) => result.toolName === "addComment"))
    return { text: "Reading on.", toolCall: readOn };
  const commented = seen.find((result) => result.toolName === "addComment");
  if (commented) {
    const problem = failed(commented.output);
    return {
      text: problem ? `I could not comment: ${problem}` : "Reviewed: one comment on the opening sentence.",
    };
  }
  const paragraph = blocks.find(
    (block) => block.type === "paragraph" && plainText(block.markdown).trim() !== "",
  );
  const sentence = paragraph ? (plainText(paragraph.markdown).match(/^.*?[.!?](?=\s|$)/)?.[0] ?? "") : "";
  if (!paragraph || sentence === "") return { text: "Reviewed: there is no paragraph to comment on." };
  return {
    text: "Commenting on the opening sentence.",
    toolCall: {
      toolName: "addComment",
      input: {
        blockId: paragraph.id,
        quote: sentence,
        comment: "Offline review: this opening sentence could say more directly what the reader gains.",
      },
    },
  };
}
