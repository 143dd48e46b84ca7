import { $isCodeNode } from "@lexical/code";
import { $isHorizontalRuleNode } from "@lexical/extension";
import { $isListItemNode, $isListNode, type ListItemNode, type ListNode } from "@lexical/list";
import { $isHeadingNode, $isQuoteNode } from "@lexical/rich-text";
import { $isTableNode, type TableNode } from "@lexical/table";
import {
  $isDecoratorNode,
  $isElementNode,
  $isParagraphNode,
  type ElementNode,
  type LexicalNode,
} from "lexical";
import type {
  AlignType,
  BlockContent,
  Heading,
  List,
  ListItem,
  PhrasingContent,
  RootContent,
  Table,
  TableCell,
  TableRow,
  Text,
} from "mdast";
import { gfmToMarkdown } from "mdast-util-gfm";
import { defaultHandlers, type Options, toMarkdown } from "mdast-util-to-markdown";
import { $fastBlockMarkdown, PLAIN_TEXT } from "./markdown-fast.ts";
import { $phrasing, phrasingOf } from "./markdown-phrasing.ts";
import { $isRawHtml } from "./markdown-raw-html.ts";

// Lexical → Markdown. A block of plain writing is written by the fast path (markdown-fast.ts); any
// other becomes its mdast tree and mdast-util-to-markdown writes it, with the escaping that makes
// text which merely looks like Markdown (`*`, `#` at a line start, `[x]`, `|` in a table cell)
// read back as text.

/** Whether `node` sits in a container as a block of its own (not inline content). */
function $isBlock(node: LexicalNode): boolean {
  return ($isElementNode(node) || $isDecoratorNode(node)) && !node.isInline();
}

/** The content of a container (quote, list item): each run of inline nodes is a paragraph. */
function $containerContent(container: ElementNode): BlockContent[] {
  const out: BlockContent[] = [];
  let run: LexicalNode[] = [];
  const endRun = () => {
    const children = phrasingOf(run);
    if (children.length > 0) out.push({ type: "paragraph", children });
    run = [];
  };
  for (const child of container.getChildren()) {
    if (!$isBlock(child)) {
      run.push(child);
      continue;
    }
    endRun();
    out.push(...($toMdast(child) as BlockContent[]));
  }
  endRun();
  return out;
}

function $listItems(list: ListNode): ListItem[] {
  const items: ListItem[] = [];
  const check = list.getListType() === "check";
  for (let child = list.getFirstChild(); child !== null; child = child.getNextSibling()) {
    if (!$isListItemNode(child)) continue;
    const only = child.getFirstChild();
    const previous = items[items.length - 1];
    // Lexical keeps a nested list in an item of its own: in Markdown it belongs to the item before.
    if (child.getChildrenSize() === 1 && $isListNode(only) && previous !== undefined) {
      previous.children.push($list(only));
      continue;
    }
    items.push($listItem(child, check));
  }
  return items;
}

function $listItem(item: ListItemNode, check: boolean): ListItem {
  const children = $containerContent(item);
  // An item with paragraphs as blocks of their own is loose (rendered with <p>).
  const spread = item.getChildren().some($isParagraphNode);
  return { type: "listItem", spread, checked: check ? Boolean(item.getChecked()) : null, children };
}

function $list(list: ListNode): List {
  const children = $listItems(list);
  const ordered = list.getListType() === "number";
  return {
    type: "list",
    ordered,
    start: ordered ? list.getStart() : null,
    spread: children.some((item) => item.spread),
    children,
  };
}

/** A column's alignment, as the writer set it on the header cell's paragraph. */
function $alignment(cell: ElementNode): AlignType {
  const first = cell.getFirstChild();
  const format = $isElementNode(first) ? first.getFormatType() : "";
  return format === "left" || format === "center" || format === "right" ? format : null;
}

function $tableCell(cell: ElementNode): TableCell {
  const children: PhrasingContent[] = [];
  for (const part of cell.getChildren()) {
    if (!$isElementNode(part)) continue;
    if (children.length > 0) children.push({ type: "text", value: " " });
    // A table row is one line: a line break in a cell becomes a space.
    for (const node of $phrasing(part))
      children.push(node.type === "break" ? { type: "text", value: " " } : node);
  }
  return { type: "tableCell", children };
}

function $table(table: TableNode): Table {
  const rows: TableRow[] = [];
  for (const row of table.getChildren()) {
    if (!$isElementNode(row)) continue;
    const cells = row.getChildren().filter($isElementNode);
    rows.push({ type: "tableRow", children: cells.map($tableCell) });
  }
  const header = table.getFirstChild();
  const align = $isElementNode(header) ? header.getChildren().filter($isElementNode).map($alignment) : [];
  return { type: "table", align, children: rows };
}

function $codeBlock(node: LexicalNode & { getLanguage(): string | null | undefined }): RootContent {
  const value = node.getTextContent();
  if ($isRawHtml(node)) return { type: "html", value };
  const [lang = null, ...meta] = (node.getLanguage() ?? "").split(" ");
  return { type: "code", lang: lang || null, meta: meta.join(" ") || null, value };
}

/** One Lexical node as the mdast blocks it stands for (none for an empty paragraph). */
export function $toMdast(node: LexicalNode): RootContent[] {
  if ($isParagraphNode(node)) {
    const children = $phrasing(node);
    return children.length === 0 ? [] : [{ type: "paragraph", children }];
  }
  if ($isHeadingNode(node)) {
    const depth = Number(node.getTag().slice(1)) as Heading["depth"];
    return [{ type: "heading", depth, children: $phrasing(node) }];
  }
  if ($isQuoteNode(node)) return [{ type: "blockquote", children: $containerContent(node) }];
  if ($isCodeNode(node)) return [$codeBlock(node)];
  if ($isListNode(node)) return [$list(node)];
  if ($isTableNode(node)) return [$table(node)];
  if ($isHorizontalRuleNode(node)) return [{ type: "thematicBreak" }];
  if ($isElementNode(node)) {
    const children = $phrasing(node);
    return children.length === 0 ? [] : [{ type: "paragraph", children }];
  }
  const text = node.getTextContent();
  return text === "" ? [] : [{ type: "paragraph", children: [{ type: "text", value: text }] }];
}

const baseOptions: Options = {
  bullet: "-",
  bulletOther: "*",
  bulletOrdered: ".",
  emphasis: "*",
  strong: "*",
  fence: "`",
  fences: true,
  rule: "-",
  listItemIndent: "one",
  incrementListMarker: true,
  // Unpadded tables: padding would rewrite every row of a table when one cell grows.
  extensions: [gfmToMarkdown({ tablePipeAlign: false })],
  // Text that needs no escaping skips the ~40 escape patterns (the bulk of the writer's time).
  handlers: {
    text: (node: Text, parent, state, info) =>
      PLAIN_TEXT.test(node.value) ? node.value : defaultHandlers.text(node, parent, state, info),
  },
};
// The same options with the other list markers, for a list right after another list: "- a" then
// "- b" would read back as one list.
const alternateOptions: Options = { ...baseOptions, bullet: "*", bulletOther: "-", bulletOrdered: ")" };

/** Writes mdast blocks as Markdown (no trailing newline); `alternate` picks the other list markers. */
export function writeMarkdown(blocks: RootContent[], alternate = false): string {
  if (blocks.length === 0) return "";
  return toMarkdown({ type: "root", children: blocks }, alternate ? alternateOptions : baseOptions).replace(
    /\n$/,
    "",
  );
}

/** One top-level block as Markdown ("" for an empty paragraph): the fast path when it can, else mdast. */
export function $blockMarkdown(block: LexicalNode, alternate = false): string {
  return $fastBlockMarkdown(block, alternate) ?? writeMarkdown($toMdast(block), alternate);
}
