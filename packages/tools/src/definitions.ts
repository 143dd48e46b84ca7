// Imported by the server: names, descriptions and schemas only, no Lexical.
import { type ToolName, type ToolSchemas, toolSchemas } from "@coauthor/types/tools";

/** What the model (and the server) knows about an editor tool. */
export type ToolDefinition<K extends ToolName = ToolName> = {
  name: K;
  description: string;
  input: ToolSchemas[K]["input"];
  output: ToolSchemas[K]["output"];
};

const ADDRESSING =
  'Blocks are the document\'s top-level elements (paragraph, heading, quote, code block, whole list); each has a stable id such as "b1x2y3z4a", taken from readDocument or from an earlier tool result. Ids never change while a block exists.';

const FAILURES =
  'On failure the result is { ok: false, code, message } and the document is unchanged: code "invalid-input" means the arguments do not match the schema (the message names the field), "unknown-block" means a block id does not exist (re-read the document), "internal-error" means the editor failed.';

/** Name, LLM-facing description and schemas of every editor tool. */
export const toolDefinitions: { [K in ToolName]: ToolDefinition<K> } = {
  readDocument: {
    name: "readDocument",
    description: [
      "Read the document as a list of top-level blocks, each with its id, its type (paragraph, heading-1..heading-6, quote, code, bullet-list, number-list, check-list) and its content as Markdown.",
      "Long documents are paged: pass fromBlock (0-based index of the first block, default 0) and maxBlocks (default 200, at most 500); when nextFromBlock is not null, call again with fromBlock = nextFromBlock to read on.",
      "Read before editing so you know the block ids.",
      ADDRESSING,
      FAILURES,
    ].join(" "),
    ...toolSchemas.readDocument,
  },
  insertBlocks: {
    name: "insertBlocks",
    description: [
      "Insert new blocks written as Markdown (headings, paragraphs, bullet/numbered lists, > quotes, ``` code blocks, **bold**, *italic*, ~~strike~~, `code`, [links](url)).",
      'position is { at: "start" } or { at: "end" } of the document, or { at: "before" | "after", blockId } relative to an existing block. In an empty document the placeholder paragraph is replaced.',
      "Returns the ids of the new blocks in document order. Blank lines separate blocks.",
      ADDRESSING,
      FAILURES,
    ].join(" "),
    ...toolSchemas.insertBlocks,
  },
  replaceText: {
    name: "replaceText",
    description: [
      'Replace plain text (exact, case-sensitive, not Markdown) with new plain text, in one block (blockId) or anywhere in the document (no blockId). occurrence "first" replaces only the first match, "all" (default) every match. The replaced text keeps the formatting of the text around it.',
      "Returns the number of replacements and the ids of the blocks that changed.",
      'Code "not-found" means the text does not occur (or only across differently formatted pieces, e.g. half bold); check the spelling against readDocument, or rewrite the block.',
      ADDRESSING,
      FAILURES,
    ].join(" "),
    ...toolSchemas.replaceText,
  },
  deleteBlocks: {
    name: "deleteBlocks",
    description: [
      "Delete whole top-level blocks by id. Either all listed blocks are deleted or, if any id is unknown, none.",
      "Deleting every block leaves one empty paragraph. Returns how many blocks were deleted.",
      ADDRESSING,
      FAILURES,
    ].join(" "),
    ...toolSchemas.deleteBlocks,
  },
};
