import { $isCodeNode } from "@lexical/code";
import { $isListItemNode, $isListNode, type ListNode } from "@lexical/list";
import { $isHeadingNode, $isQuoteNode } from "@lexical/rich-text";
import { $isTableNode, type TableNode } from "@lexical/table";
import { $getRoot, $isElementNode, $isParagraphNode, type LexicalNode } from "lexical";
import { $inlineMarkdown } from "./inline-markdown.ts";

const LIST_INDENT = "    ";

/** Escapes a block's first characters when plain text would read as a heading, list, quote or fence. */
function escapeLineStart(text: string): string {
  return text
    .replace(/^(\s*)(#{1,6}(?:\s|$)|>|[-+](?:\s|$))/, "$1\\$2")
    .replace(/^(\s*\d+)([.)](?:\s|$))/, "$1\\$2");
}

function $listMarkdown(list: ListNode, depth: number): string {
  const lines: string[] = [];
  let index = 0;
  for (let item = list.getFirstChild(); item !== null; item = item.getNextSibling()) {
    if (!$isListItemNode(item)) continue;
    const only = item.getFirstChild();
    if (item.getChildrenSize() === 1 && $isListNode(only)) {
      lines.push($listMarkdown(only, depth + 1));
      continue;
    }
    const type = list.getListType();
    const prefix =
      type === "number"
        ? `${list.getStart() + index}. `
        : type === "check"
          ? `- [${item.getChecked() ? "x" : " "}] `
          : "- ";
    index++;
    const text = escapeLineStart($inlineMarkdown(item)).replace(/\n/g, `\n${LIST_INDENT.repeat(depth + 1)}`);
    lines.push(LIST_INDENT.repeat(depth) + prefix + text);
  }
  return lines.join("\n");
}

function cellMarkdown(cell: LexicalNode): string {
  if (!$isElementNode(cell)) return "";
  const parts: string[] = [];
  for (let child = cell.getFirstChild(); child !== null; child = child.getNextSibling()) {
    if ($isElementNode(child)) parts.push($inlineMarkdown(child));
  }
  return parts.join(" ").replace(/\n/g, " ").replace(/\|/g, "\\|").trim();
}

/** A table as a GFM pipe table; the first row is the header row. */
export function $tableMarkdown(table: TableNode): string {
  const rows: string[][] = [];
  for (let row = table.getFirstChild(); row !== null; row = row.getNextSibling()) {
    if (!$isElementNode(row)) continue;
    const cells: string[] = [];
    for (let cell = row.getFirstChild(); cell !== null; cell = cell.getNextSibling())
      cells.push(cellMarkdown(cell));
    rows.push(cells);
  }
  const width = Math.max(1, ...rows.map((cells) => cells.length));
  const line = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => cells[i] ?? "").join(" | ")} |`;
  const [header = [], ...body] = rows;
  return [line(header), line(Array.from({ length: width }, () => "---")), ...body.map(line)].join("\n");
}

function codeFence(text: string): string {
  let longest = 2;
  for (const run of text.match(/`{3,}/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(longest + 1);
}

/** One top-level block as Markdown. */
export function $blockMarkdown(block: LexicalNode): string {
  if ($isParagraphNode(block)) return escapeLineStart($inlineMarkdown(block));
  if ($isHeadingNode(block))
    return `${"#".repeat(Number(block.getTag().slice(1)))} ${$inlineMarkdown(block)}`;
  if ($isQuoteNode(block)) return `> ${$inlineMarkdown(block).replace(/\n/g, "\n> ")}`;
  if ($isCodeNode(block)) {
    const text = block.getTextContent();
    const fence = codeFence(text);
    return `${fence}${block.getLanguage() ?? ""}\n${text === "" ? "" : `${text}\n`}${fence}`;
  }
  if ($isListNode(block)) return $listMarkdown(block, 0);
  if ($isTableNode(block)) return $tableMarkdown(block);
  if ($isElementNode(block)) return $inlineMarkdown(block);
  return block.getTextContent();
}

function isEmptyParagraph(block: LexicalNode): boolean {
  return $isParagraphNode(block) && block.getTextContentSize() === 0;
}

/** The whole document as Markdown: blocks separated by a blank line, empty paragraphs dropped. */
export function $documentMarkdown(blockMarkdown: (block: LexicalNode) => string = $blockMarkdown): string {
  const parts: string[] = [];
  for (let block = $getRoot().getFirstChild(); block !== null; block = block.getNextSibling()) {
    const markdown = blockMarkdown(block);
    // Only an empty block renders as "": checking that first skips measuring every paragraph's text.
    if (markdown !== "" || !isEmptyParagraph(block)) parts.push(markdown);
  }
  return parts.join("\n\n");
}
