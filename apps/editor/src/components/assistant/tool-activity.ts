import { InvalidContentError, parseMarkdown } from "@coauthor/tools";
import type { ToolResultFacts } from "@coauthor/types";
import { type ToolName, toolNameSchema, toolSchemas } from "@coauthor/types/tools";
import type { BlockInfo, BlockLookup } from "../editor/block-info";

// Each tool call in the writer's words, one describer per tool, with the block it links to. The
// panel and History both describe calls here, from the same recorded facts (the call's input and
// its `tool-result` event), so a run reads the same in both.

/** A tool call as the run recorded it. */
export interface RecordedToolCall {
  toolName: string;
  input: unknown;
  status: "running" | "ok" | "failed";
  /** The failure's message (failed calls). */
  detail?: string;
  facts?: ToolResultFacts;
}

/** A tool call in words, and the block a link takes the writer to (absent: nowhere to go). */
export interface ToolActivity {
  text: string;
  blockId?: string;
}

const QUOTE_MAX = 40;

/** `text` quoted, shortened to a glance. */
export function quote(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return `'${flat.length > QUOTE_MAX ? `${flat.slice(0, QUOTE_MAX - 1).trimEnd()}…` : flat}'`;
}

const number = (n: number) => n.toLocaleString("en-US");
/** "1 place", "3 places". */
export const counted = (n: number, noun: string, plural = `${noun}s`) =>
  `${number(n)} ${n === 1 ? noun : plural}`;

const NOUNS: [RegExp, string, string][] = [
  [/^paragraph$/, "paragraph", "paragraphs"],
  [/^heading-\d$/, "heading", "headings"],
  [/-list$/, "list", "lists"],
  [/^list-item$/, "list item", "list items"],
  [/^quote$/, "quote", "quotes"],
  [/^code$/, "code block", "code blocks"],
  [/^table$/, "table", "tables"],
  [/^rule$/, "divider", "dividers"],
];

const BLOCK: [RegExp, string, string] = [/./, "block", "blocks"];
/** The singular and plural noun of a block type. */
const nounOf = (type: string) => NOUNS.find(([pattern]) => pattern.test(type)) ?? BLOCK;

/** The noun for `n` blocks of `types` ("paragraphs" when all are paragraphs, else "blocks"). */
function blockNoun(types: string[], n: number): string {
  const nouns = new Set(types.map(nounOf));
  const [only] = nouns;
  const [, singular, plural] = nouns.size === 1 && only ? only : BLOCK;
  return counted(n, singular, plural);
}

/** A block by its text ("'Costs were flat.'"), or "a block" when it is not known here. */
function named(info: BlockInfo | undefined): string {
  if (!info) return "a block";
  return info.text.trim() ? quote(info.text) : `an empty ${nounOf(info.type)[1]}`;
}

const MDAST_TYPES: Record<string, string> = {
  paragraph: "paragraph",
  heading: "heading-1",
  list: "bullet-list",
  blockquote: "quote",
  code: "code",
  table: "table",
  thematicBreak: "rule",
};

/**
 * The block types Markdown makes (top level), as far as a quick parse tells; null for Markdown the
 * content rule refuses (the tool refused it too, so it made no blocks to name).
 */
function markdownTypes(markdown: string): string[] | null {
  try {
    return parseMarkdown(markdown).children.map((node) => MDAST_TYPES[node.type] ?? node.type);
  } catch (error) {
    if (error instanceof InvalidContentError) return null;
    throw error;
  }
}

type Position = { at: "end" | "start" | "selection" } | { at: "after" | "before"; blockId: string };

function where(position: Position, lookup: BlockLookup): string {
  switch (position.at) {
    case "end":
      return "at the end";
    case "start":
      return "at the start";
    case "selection":
      return "at the selection";
    default:
      return `${position.at} ${named(lookup(position.blockId))}`;
  }
}

/** Past tense when done, "-ing" while running, "Could not …" when it failed. */
function verb(call: RecordedToolCall, done: string, doing: string, base: string): string {
  return call.status === "ok" ? done : call.status === "running" ? doing : `Could not ${base}`;
}

const firstBlock = (facts?: ToolResultFacts) => facts?.blockIds?.[0];
const FORMAT_WORDS: Record<string, string> = { code: "code", strikethrough: "struck through" };

function describeParsed(call: RecordedToolCall, name: ToolName, lookup: BlockLookup): ToolActivity | null {
  const facts = call.facts;
  switch (name) {
    case "readDocument": {
      const input = toolSchemas.readDocument.input.safeParse(call.input);
      if (!input.success) return null;
      const read = verb(call, "Read", "Reading", "read");
      if (facts?.count === undefined || facts.totalBlocks === undefined)
        return { text: `${read} the document` };
      const from = input.data.fromBlockId ? undefined : input.data.fromBlock;
      if (from === 0 && facts.count === facts.totalBlocks)
        return { text: `${read} the document (all ${counted(facts.count, "block")})` };
      const range =
        from === undefined
          ? counted(facts.count, "block")
          : `blocks ${number(from + 1)}–${number(from + facts.count)}`;
      return { text: `${read} the document (${range} of ${number(facts.totalBlocks)})` };
    }
    case "readSelection":
      return { text: `${verb(call, "Read", "Reading", "read")} the selection`, blockId: firstBlock(facts) };
    case "findText": {
      const input = toolSchemas.findText.input.safeParse(call.input);
      if (!input.success) return null;
      const what = quote(input.data.query);
      if (call.status !== "ok") return { text: `${verb(call, "", "Looking for", "look for")} ${what}` };
      if (!facts?.count) return { text: `Looked for ${what}: not found` };
      return { text: `Found ${what} in ${counted(facts.count, "place")}`, blockId: firstBlock(facts) };
    }
    case "insertBlocks": {
      const input = toolSchemas.insertBlocks.input.safeParse(call.input);
      if (!input.success) return null;
      const types = markdownTypes(input.data.markdown);
      const noun = types === null ? "blocks" : blockNoun(types, facts?.count ?? types.length);
      const text = `${verb(call, "Added", "Adding", "add")} ${noun} ${where(input.data.position, lookup)}`;
      return { text, blockId: firstBlock(facts) };
    }
    case "insertTable": {
      const input = toolSchemas.insertTable.input.safeParse(call.input);
      if (!input.success) return null;
      const columns = Math.max(...input.data.rows.map((row) => row.length));
      const size = `${counted(input.data.rows.length, "row")} × ${counted(columns, "column")}`;
      const text = `${verb(call, "Added", "Adding", "add")} a table (${size}) ${where(input.data.position, lookup)}`;
      return { text, blockId: firstBlock(facts) };
    }
    case "replaceBlock": {
      const input = toolSchemas.replaceBlock.input.safeParse(call.input);
      if (!input.success) return null;
      const text = `${verb(call, "Rewrote", "Rewriting", "rewrite")} ${named(lookup(input.data.blockId))}`;
      return { text, blockId: firstBlock(facts) ?? input.data.blockId };
    }
    case "replaceText": {
      const input = toolSchemas.replaceText.input.safeParse(call.input);
      if (!input.success) return null;
      const change = `${quote(input.data.search)} with ${quote(input.data.replace)}`;
      const places = facts?.count === undefined ? "" : ` in ${counted(facts.count, "place")}`;
      return {
        text: `${verb(call, "Replaced", "Replacing", "replace")} ${change}${places}`,
        blockId: firstBlock(facts),
      };
    }
    case "deleteBlocks": {
      const input = toolSchemas.deleteBlocks.input.safeParse(call.input);
      if (!input.success) return null;
      const infos = input.data.blockIds.map(lookup);
      const known = infos.filter((info): info is BlockInfo => info !== undefined);
      const count = facts?.count ?? input.data.blockIds.length;
      const noun =
        known.length === infos.length
          ? blockNoun(
              known.map((info) => info.type),
              count,
            )
          : counted(count, "block");
      const only = known.length === 1 && count === 1 && known[0] ? ` ${quote(known[0].text)}` : "";
      return { text: `${verb(call, "Deleted", "Deleting", "delete")} ${noun}${only}` };
    }
    case "moveBlock": {
      const input = toolSchemas.moveBlock.input.safeParse(call.input);
      if (!input.success) return null;
      const text = `${verb(call, "Moved", "Moving", "move")} ${named(lookup(input.data.blockId))} ${where(input.data.position, lookup)}`;
      return { text, blockId: input.data.blockId };
    }
    case "setBlockType": {
      const input = toolSchemas.setBlockType.input.safeParse(call.input);
      if (!input.success) return null;
      const into = nounOf(input.data.type)[1];
      const level = input.data.type.startsWith("heading-") ? `level-${input.data.type.slice(8)} ` : "";
      const text = `${verb(call, "Turned", "Turning", "turn")} ${named(lookup(input.data.blockId))} into a ${level}${into}`;
      return { text, blockId: input.data.blockId };
    }
    case "formatText": {
      const input = toolSchemas.formatText.input.safeParse(call.input);
      if (!input.success) return null;
      const target = input.data.text
        ? quote(input.data.text)
        : `text in ${named(lookup(input.data.blockId))}`;
      const changes = [
        ...input.data.add.map((format) => `made it ${FORMAT_WORDS[format] ?? format}`),
        ...input.data.remove.map((format) => `removed ${format}`),
        ...(input.data.link === undefined
          ? []
          : [input.data.link ? `linked it to ${input.data.link}` : "removed its link"]),
      ];
      const text = `${verb(call, "Formatted", "Formatting", "format")} ${target}${changes.length ? `: ${changes.join(", ")}` : ""}`;
      return { text, blockId: input.data.blockId };
    }
    case "updateTableCell": {
      const input = toolSchemas.updateTableCell.input.safeParse(call.input);
      if (!input.success) return null;
      const cell = `row ${input.data.row + 1}, column ${input.data.column + 1}`;
      const text = `${verb(call, "Set", "Setting", "set")} a table cell (${cell}) to ${quote(input.data.text)}`;
      return { text, blockId: input.data.blockId };
    }
    case "decideSuggestions": {
      const input = toolSchemas.decideSuggestions.input.safeParse(call.input);
      if (!input.success) return null;
      const which = input.data.blockIds
        ? counted(input.data.blockIds.length, "suggestion")
        : "its suggestions";
      const text =
        input.data.decision === "accept"
          ? `${verb(call, "Accepted", "Accepting", "accept")} ${which}`
          : `${verb(call, "Rejected", "Rejecting", "reject")} ${which}`;
      return { text, blockId: input.data.blockIds?.[0] };
    }
  }
}

/** The sentence for `call`; `lookup` names the blocks it refers to (as they were when it ran). */
export function describeToolCall(call: RecordedToolCall, lookup: BlockLookup): ToolActivity {
  const tool = toolNameSchema.safeParse(call.toolName);
  const described = tool.success ? describeParsed(call, tool.data, lookup) : null;
  return described ?? { text: `${verb(call, "Used", "Using", "use")} ${call.toolName}` };
}

/** The existing blocks a call names in its input (whose text its sentence quotes). */
export function referencedBlockIds(input: unknown): string[] {
  if (typeof input !== "object" || input === null) return [];
  const ids: string[] = [];
  if ("blockId" in input && typeof input.blockId === "string") ids.push(input.blockId);
  if ("blockIds" in input && Array.isArray(input.blockIds))
    ids.push(...input.blockIds.filter((id): id is string => typeof id === "string").slice(0, 50));
  if ("position" in input && typeof input.position === "object" && input.position !== null) {
    const { position } = input;
    if ("blockId" in position && typeof position.blockId === "string") ids.push(position.blockId);
  }
  return ids;
}
