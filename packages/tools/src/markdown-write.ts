import { $isCodeNode } from "@lexical/code";
import { $isHorizontalRuleNode } from "@lexical/extension";
import { $isLinkNode } from "@lexical/link";
import { $isListItemNode, $isListNode, type ListItemNode, type ListNode } from "@lexical/list";
import { $isHeadingNode, $isQuoteNode } from "@lexical/rich-text";
import { $isTableNode, type TableNode } from "@lexical/table";
import {
  $isDecoratorNode,
  $isElementNode,
  $isLineBreakNode,
  $isParagraphNode,
  $isTextNode,
  type ElementNode,
  type LexicalNode,
  type TextNode,
} from "lexical";
import type {
  AlignType,
  BlockContent,
  Heading,
  Link,
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
import { $isRawHtml } from "./markdown-raw-html.ts";

// Lexical → Markdown. A block of plain writing is written by the fast path (markdown-fast.ts); any
// other becomes its mdast tree and mdast-util-to-markdown writes it, with the escaping that makes
// text which merely looks like Markdown (`*`, `#` at a line start, `[x]`, `|` in a table cell)
// read back as text.

/** Marks that Markdown can write, outermost first. Underline and highlight have no Markdown. */
const MARKS = [
  ["bold", "strong"],
  ["italic", "emphasis"],
  ["strikethrough", "delete"],
] as const;
type Mark = (typeof MARKS)[number][1];

type Parent = { children: PhrasingContent[] };

/**
 * Builds mdast phrasing content from Lexical's inline nodes. Lexical stores formats flat, per text
 * node; mdast nests them, so consecutive texts share an open mark (`**a *b***`, not `**a*****b***`).
 */
class PhrasingWriter {
  readonly root: Parent = { children: [] };
  private readonly open: { mark: Mark; node: Parent }[] = [];
  /**
   * Trailing whitespace and line breaks after the last text, written once the next text shows
   * which marks stay open: inside the marks it continues, outside the ones it closes.
   */
  private pending: PhrasingContent[] = [];

  private target(): Parent {
    return this.open[this.open.length - 1]?.node ?? this.root;
  }

  private closeFrom(index: number): void {
    this.open.length = Math.min(this.open.length, index);
  }

  private push(node: PhrasingContent): void {
    const target = this.target();
    const last = target.children[target.children.length - 1];
    // Adjacent code spans must merge: "`a``b`" would read as one span holding "a``b".
    if ((node.type === "text" || node.type === "inlineCode") && last?.type === node.type)
      last.value += node.value;
    else target.children.push(node);
  }

  private flushPending(): void {
    for (const node of this.pending) this.push(node);
    this.pending = [];
  }

  private addPending(value: string): void {
    if (value !== "") this.pending.push({ type: "text", value });
  }

  private text(node: TextNode): void {
    const value = node.getTextContent();
    if (value === "") return;
    const code = node.hasFormat("code");
    const html = $isRawHtml(node);
    const match = code || html ? null : /^(\s*)([\s\S]*?)(\s*)$/.exec(value);
    const [lead, core, trail] = match ? [match[1] ?? "", match[2] ?? "", match[3] ?? ""] : ["", value, ""];
    const wanted = MARKS.filter(([format]) => node.hasFormat(format)).map(([, mark]) => mark);
    let keep = 0;
    while (keep < this.open.length && wanted.includes((this.open[keep] as { mark: Mark }).mark)) keep++;
    if (core === "") {
      // Whitespace alone closes the marks it lacks and opens none (delimiters must touch text).
      if (keep < this.open.length) this.breakMarksFrom(keep);
      this.addPending(value);
      return;
    }
    // Delimiters must touch text: whitespace goes outside the marks that close or open here.
    this.closeFrom(keep);
    this.addPending(lead);
    this.flushPending();
    for (const mark of wanted) {
      if (this.open.some((entry) => entry.mark === mark)) continue;
      const child = { type: mark, children: [] } as PhrasingContent & Parent;
      this.target().children.push(child);
      this.open.push({ mark, node: child });
    }
    this.push(
      html
        ? { type: "html", value: core }
        : code
          ? { type: "inlineCode", value: core }
          : { type: "text", value: core },
    );
    this.addPending(trail);
  }

  /** Closes marks from `index` on, writing pending whitespace outside them. */
  private breakMarksFrom(index: number): void {
    this.closeFrom(index);
    this.flushPending();
  }

  /** Closes every mark before a node that marks do not span. */
  private breakMarks(): void {
    this.breakMarksFrom(0);
  }

  node(node: LexicalNode): void {
    if ($isTextNode(node)) {
      this.text(node);
    } else if ($isLineBreakNode(node)) {
      // A hard line break stays inside marks the next text continues (`*foo\\\nbar*`); spaces
      // before it would be trailing spaces of a line, which Markdown drops.
      this.pending = this.pending.filter((pending) => pending.type !== "text");
      this.pending.push({ type: "break" });
    } else if ($isLinkNode(node)) {
      this.breakMarks();
      const title = node.getTitle();
      this.push({
        type: "link",
        url: node.getURL(),
        title: title || null,
        children: phrasingOf(node.getChildren()) as Link["children"],
      });
    } else if ($isElementNode(node)) {
      for (const child of node.getChildren()) this.node(child);
    } else {
      this.breakMarks();
      this.push({ type: "text", value: node.getTextContent() });
    }
  }

  finish(): PhrasingContent[] {
    this.closeFrom(0);
    // A line break cannot end a paragraph in Markdown; trailing whitespace can.
    this.pending = this.pending.filter((pending) => pending.type !== "break");
    this.flushPending();
    return this.root.children;
  }
}

function phrasingOf(nodes: ReadonlyArray<LexicalNode>): PhrasingContent[] {
  const writer = new PhrasingWriter();
  for (const node of nodes) writer.node(node);
  return writer.finish();
}

/** The inline content of `element` as mdast phrasing content. */
export function $phrasing(element: ElementNode): PhrasingContent[] {
  return phrasingOf(element.getChildren());
}

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
