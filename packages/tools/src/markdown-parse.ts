import { $createCodeNode } from "@lexical/code";
import { $createHorizontalRuleNode } from "@lexical/extension";
import {
  $createListItemNode,
  $createListNode,
  type ListItemNode,
  type ListNode,
  type ListType,
} from "@lexical/list";
import {
  $createHeadingNode,
  $createQuoteNode,
  $isHeadingNode,
  type HeadingTagType,
} from "@lexical/rich-text";
import {
  $createTableCellNode,
  $createTableNode,
  $createTableRowNode,
  TableCellHeaderStates,
  type TableNode,
} from "@lexical/table";
import {
  $createParagraphNode,
  $createTextNode,
  $isParagraphNode,
  type ElementFormatType,
  type ElementNode,
  type LexicalNode,
} from "lexical";
import type {
  BlockContent,
  DefinitionContent,
  List,
  ListItem,
  PhrasingContent,
  RootContent,
  Table,
} from "mdast";
import { type ContentProblem, InvalidContentError } from "./content-problem.ts";
import { $contentRuleBreak, markdownTableBreak } from "./content-rule-check.ts";
import { $markRawHtml } from "./markdown-raw-html.ts";
import { $phrasing, type MarkdownContext as Context, clean } from "./markdown-read-inline.ts";
import { linkDefinitions, parseMarkdown } from "./markdown-syntax.ts";

// Markdown → Lexical: the syntax tree (mdast, from markdown-syntax.ts) mapped onto the editor's
// nodes. The mapping, both ways, is
// listed in docs/markdown.md; what the editor cannot hold keeps its text:
// - raw HTML blocks become code blocks and inline tags token texts, both marked as raw HTML and
//   written back verbatim; footnote markers become literal text;
// - images become links to the image (their alt text is the link text);
// - reference links are resolved into ordinary links (a definition no link uses renders nothing
//   in Markdown either, so it is not kept).

/**
 * A raw HTML block's source without what is layout rather than content: the indentation all its
 * lines share (the block may sit deeper than its container's content) and the line ending of a
 * block that runs to the end of the document.
 */
function htmlBlockSource(value: string): string {
  const lines = value.replace(/\n+$/, "").split("\n");
  const indent = (line: string) => /^ */.exec(line)?.[0].length ?? 0;
  const shared = Math.min(...lines.filter((line) => line.trim() !== "").map(indent));
  if (!Number.isFinite(shared) || shared === 0) return lines.join("\n");
  return lines.map((line) => line.slice(Math.min(shared, indent(line)))).join("\n");
}

function $paragraph(children: ReadonlyArray<PhrasingContent>, context: Context): ElementNode {
  return $createParagraphNode().append(...$phrasing(children, [], context));
}

function listType(list: List): ListType {
  if (list.children.some((item) => typeof item.checked === "boolean")) return "check";
  return list.ordered ? "number" : "bullet";
}

/** Whether HTML renders the list's paragraphs as `<p>` (CommonMark's loose list). */
function isLooseList(list: List): boolean {
  return Boolean(list.spread) || list.children.some((item) => item.spread ?? item.children.length > 1);
}

function $listItems(item: ListItem, type: ListType, loose: boolean, context: Context): ListItemNode[] {
  const own = $createListItemNode(type === "check" ? Boolean(item.checked) : undefined);
  const items = [own];
  let current: ListItemNode | null = own;
  for (const child of item.children) {
    if (child.type === "list") {
      // Lexical keeps a nested list in an item of its own, right after the item it belongs to;
      // anything after the nested list continues in a new item.
      items.push($createListItemNode().append($list(child, context)));
      current = null;
      continue;
    }
    if (current === null) {
      current = $createListItemNode(type === "check" ? false : undefined);
      items.push(current);
    }
    // A tight item's paragraph is the item's own text; anything else is a block inside the item
    // (spliced: ListItemNode.append would unwrap a paragraph into text).
    if (child.type === "paragraph" && !loose) current.append(...$phrasing(child.children, [], context));
    else current.splice(current.getChildrenSize(), 0, $blocks([child], context));
  }
  return items;
}

function $list(list: List, context: Context): ListNode {
  const type = listType(list);
  const node = $createListNode(type, list.ordered ? (list.start ?? 1) : undefined);
  const loose = isLooseList(list);
  for (const item of list.children) node.append(...$listItems(item, type, loose, context));
  return node;
}

function $table(table: Table, context: Context): TableNode {
  const node = $createTableNode();
  const width = Math.max(1, ...table.children.map((row) => row.children.length));
  table.children.forEach((row, r) => {
    const rowNode = $createTableRowNode();
    for (let c = 0; c < width; c++) {
      const cell = $createTableCellNode(
        r === 0 ? TableCellHeaderStates.ROW : TableCellHeaderStates.NO_STATUS,
      );
      const paragraph = $paragraph(row.children[c]?.children ?? [], context);
      const align = table.align?.[c];
      if (align) paragraph.setFormat(align satisfies ElementFormatType);
      rowNode.append(cell.append(paragraph));
    }
    node.append(rowNode);
  });
  return node;
}

function $blocks(
  nodes: ReadonlyArray<RootContent | BlockContent | DefinitionContent>,
  context: Context,
): LexicalNode[] {
  const out: LexicalNode[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case "paragraph":
        out.push($paragraph(node.children, context));
        break;
      case "heading":
        out.push(
          $createHeadingNode(`h${node.depth}` as HeadingTagType).append(
            ...$phrasing(node.children, [], context),
          ),
        );
        break;
      case "thematicBreak":
        out.push($createHorizontalRuleNode());
        break;
      case "blockquote": {
        const [only] = node.children;
        const quote = $createQuoteNode();
        // A quote of one paragraph holds its text directly, as the editor makes quotes; any other
        // content is kept as blocks inside the quote.
        if (node.children.length === 1 && only?.type === "paragraph")
          quote.append(...$phrasing(only.children, [], context));
        else quote.append(...$blocks(node.children, context));
        out.push(quote);
        break;
      }
      case "code": {
        const info = [node.lang, node.meta].filter(Boolean).join(" ");
        const code = $createCodeNode(clean(info) || undefined);
        out.push(node.value === "" ? code : code.append($createTextNode(clean(node.value))));
        break;
      }
      case "html":
        out.push(
          $markRawHtml($createCodeNode("html").append($createTextNode(clean(htmlBlockSource(node.value))))),
        );
        break;
      case "list":
        out.push($list(node, context));
        break;
      case "table":
        out.push($table(node, context));
        break;
      case "footnoteDefinition": {
        // Kept as literal text: "[^label]: " before the note's first paragraph.
        const blocks = $blocks(node.children, context);
        const label = $createTextNode(clean(`[^${node.label ?? node.identifier}]: `));
        const [first] = blocks;
        if ($isParagraphNode(first)) first.splice(0, 0, [label]);
        else blocks.unshift($createParagraphNode().append(label));
        out.push(...blocks);
        break;
      }
      // Definitions are resolved into the links that use them; front matter is not enabled.
      default:
        break;
    }
  }
  return out;
}

/** The nodes one top-level block of Markdown makes, and where it is (1-based lines and columns, end exclusive). */
export type MarkdownSpan = {
  nodes: LexicalNode[];
  start: { line: number; column: number };
  end: { line: number; column: number };
};

/**
 * Parses `markdown` into new, unattached top-level nodes (inside an active update), each top-level
 * block's with where it is, or the first way it breaks the content rule: the pre-scan's bounds
 * (markdown-limits.ts), then each top-level block's tables before it is built and its nodes after.
 * Nothing is returned from a refused text.
 */
export function $readMarkdownSpans(
  markdown: string,
): { ok: true; spans: MarkdownSpan[] } | { ok: false; problem: ContentProblem } {
  let root: ReturnType<typeof parseMarkdown>;
  try {
    root = parseMarkdown(markdown);
  } catch (error) {
    if (error instanceof InvalidContentError) return { ok: false, problem: error.problem };
    throw error;
  }
  const context = { definitions: linkDefinitions(root) };
  const spans: MarkdownSpan[] = [];
  for (const block of root.children) {
    const start = block.position?.start ?? { line: 1, column: 1 };
    const end = block.position?.end ?? start;
    const tables = markdownTableBreak(block);
    if (tables !== null) return { ok: false, problem: { what: tables, line: start.line } };
    const nodes = $blocks([block], context);
    const broken = $contentRuleBreak(nodes);
    if (broken !== null) return { ok: false, problem: { what: broken, line: start.line } };
    spans.push({ nodes, start, end });
  }
  return { ok: true, spans };
}

/** Parses `markdown` into new, unattached top-level nodes (see $readMarkdownSpans), or the first way it breaks the content rule. */
export function $readMarkdown(
  markdown: string,
): { ok: true; nodes: LexicalNode[] } | { ok: false; problem: ContentProblem } {
  const read = $readMarkdownSpans(markdown);
  if (!read.ok) return read;
  return { ok: true, nodes: read.spans.flatMap((span) => span.nodes) };
}

/** Parses `markdown` into new, unattached top-level nodes; throws InvalidContentError when it breaks the rule. */
export function $markdownToNodes(markdown: string): LexicalNode[] {
  const read = $readMarkdown(markdown);
  if (!read.ok) throw new InvalidContentError(read.problem);
  return read.nodes;
}

/**
 * The inline nodes of `markdown` read as one paragraph's content (other blocks flatten to their
 * text), or the way it breaks the content rule.
 */
export function $readInlineMarkdown(
  markdown: string,
): { ok: true; nodes: LexicalNode[] } | { ok: false; problem: ContentProblem } {
  const read = $readMarkdown(markdown);
  if (!read.ok) return read;
  const nodes: LexicalNode[] = [];
  for (const block of read.nodes) {
    if (nodes.length > 0) nodes.push($createTextNode(" "));
    if ($isParagraphNode(block) || $isHeadingNode(block)) nodes.push(...block.getChildren());
    else nodes.push($createTextNode(block.getTextContent()));
  }
  return { ok: true, nodes };
}
