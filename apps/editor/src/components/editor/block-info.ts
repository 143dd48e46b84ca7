import { $findBlockById, $getBlockType } from "@coauthor/tools";
import type { LexicalEditor } from "lexical";

// What the activity sentences and History's diff say about a block: its type (the tools'
// vocabulary: "paragraph", "heading-2", "bullet-list", "table", …) and its plain text.

/** A block's type and plain text. */
export interface BlockInfo {
  type: string;
  text: string;
}

/** Looks a block up by its stable id (undefined: not known here). */
export type BlockLookup = (blockId: string) => BlockInfo | undefined;

/** A serialized Lexical node, as stored (only the fields read here). */
interface JsonNode {
  type: string;
  children?: unknown;
  text?: unknown;
  tag?: unknown;
  listType?: unknown;
}

const SEPARATORS: Record<string, string> = {
  list: "\n",
  listitem: "",
  table: "\n",
  tablerow: " | ",
  tablecell: " ",
};

function isJsonNode(value: unknown): value is JsonNode {
  return typeof value === "object" && value !== null && "type" in value && typeof value.type === "string";
}

/** The plain text of a serialized node: its text runs, line breaks, list items and table cells. */
export function textOfJson(node: JsonNode): string {
  if (typeof node.text === "string") return node.text;
  if (node.type === "linebreak") return "\n";
  if (!Array.isArray(node.children)) return "";
  const parts = node.children.filter(isJsonNode).map(textOfJson);
  return parts.join(SEPARATORS[node.type] ?? "");
}

/** The type of a serialized block in the tools' vocabulary. */
function typeOfJson(node: JsonNode): string {
  if (node.type === "heading" && typeof node.tag === "string") return `heading-${node.tag.slice(1)}`;
  if (node.type === "list" && typeof node.listType === "string") return `${node.listType}-list`;
  if (node.type === "horizontalrule") return "rule";
  return node.type;
}

/** A stored (serialized) block's type and text. */
export function blockInfoFromJson(json: JsonNode): BlockInfo {
  return { type: typeOfJson(json), text: textOfJson(json) };
}

/** The live blocks of `editor` named by `ids`, as they are now (unknown ids are left out). */
export function readBlockInfos(editor: LexicalEditor, ids: Iterable<string>): Record<string, BlockInfo> {
  return editor.read(() => {
    const found: Record<string, BlockInfo> = {};
    for (const id of ids) {
      const node = $findBlockById(id);
      if (node) found[id] = { type: $getBlockType(node), text: node.getTextContent() };
    }
    return found;
  });
}
