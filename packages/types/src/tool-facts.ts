import { z } from "zod";
import { type ToolName, toolNameSchema, toolSchemas } from "./tools.ts";

// What a tool call did, in a few numbers and ids: carried on the run's `tool-result` event so the
// panel (in every tab) and History can say it in words and link to the place, without the
// result itself (a readDocument result is the document's text).

/** Block ids a `tool-result` event names at most (the first ones: a link needs only the first). */
export const MAX_FACT_BLOCK_IDS = 20;

export const toolResultFactsSchema = z.object({
  /** Blocks created, changed, deleted or matched, in document order (the first few). */
  blockIds: z.array(z.string().max(100)).max(MAX_FACT_BLOCK_IDS).optional(),
  /** How many: blocks written or deleted, text replacements, matches, blocks read. */
  count: z.int().min(0).optional(),
  /** readDocument: the document's length in blocks. */
  totalBlocks: z.int().min(0).optional(),
});
export type ToolResultFacts = z.infer<typeof toolResultFactsSchema>;

const firstIds = (ids: readonly string[]) => [...new Set(ids)].slice(0, MAX_FACT_BLOCK_IDS);

/** The facts of a successful result of tool `name`, or undefined for a failure or an unknown tool. */
export function toolResultFacts(name: string, result: unknown): ToolResultFacts | undefined {
  const tool = toolNameSchema.safeParse(name);
  if (!tool.success) return undefined;
  return factsOf(tool.data, result);
}

function factsOf(name: ToolName, result: unknown): ToolResultFacts | undefined {
  switch (name) {
    case "readDocument": {
      const parsed = toolSchemas.readDocument.output.safeParse(result);
      if (!parsed.success || !parsed.data.ok) return undefined;
      return { count: parsed.data.blocks.length, totalBlocks: parsed.data.totalBlocks };
    }
    case "readSelection": {
      const parsed = toolSchemas.readSelection.output.safeParse(result);
      if (!parsed.success || !parsed.data.ok) return undefined;
      const ids = parsed.data.selection?.blockIds ?? [];
      return { blockIds: firstIds(ids), count: ids.length };
    }
    case "findText": {
      const parsed = toolSchemas.findText.output.safeParse(result);
      if (!parsed.success || !parsed.data.ok) return undefined;
      const { matches } = parsed.data;
      return { blockIds: firstIds(matches.map((match) => match.blockId)), count: matches.length };
    }
    case "replaceText": {
      const parsed = toolSchemas.replaceText.output.safeParse(result);
      if (!parsed.success || !parsed.data.ok) return undefined;
      return { blockIds: firstIds(parsed.data.blockIds), count: parsed.data.replacements };
    }
    case "deleteBlocks": {
      const parsed = toolSchemas.deleteBlocks.output.safeParse(result);
      if (!parsed.success || !parsed.data.ok) return undefined;
      return { blockIds: firstIds(parsed.data.blockIds), count: parsed.data.deleted };
    }
    default: {
      const parsed = toolSchemas[name].output.safeParse(result);
      if (!parsed.success || !parsed.data.ok || !("blockIds" in parsed.data)) return undefined;
      const ids = parsed.data.blockIds;
      return Array.isArray(ids) ? { blockIds: firstIds(ids), count: ids.length } : undefined;
    }
  }
}
