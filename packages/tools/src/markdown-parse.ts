import { $createCodeNode } from "@lexical/code";
import { $createHorizontalRuleNode } from "@lexical/extension";
import { $createLinkNode, type LinkNode } from "@lexical/link";
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
  $createLineBreakNode,
  $createParagraphNode,
  $createTextNode,
  $isParagraphNode,
  type ElementFormatType,
  type ElementNode,
  type LexicalNode,
  type TextFormatType,
} from "lexical";
import type {
  BlockContent,
  Definition,
  DefinitionContent,
  List,
  ListItem,
  PhrasingContent,
  RootContent,
  Table,
} from "mdast";
import { $markRawHtml } from "./markdown-raw-html.ts";
import { linkDefinitions, parseMarkdown } from "./markdown-syntax.ts";

// Markdown → Lexical: the syntax tree (mdast, from markdown-syntax.ts) mapped onto the editor's
// nodes. The mapping, both ways, is
// listed in docs/markdown.md; what the editor cannot hold keeps its text:
// - raw HTML blocks become code blocks and inline tags token texts, both marked as raw HTML and
//   written back verbatim; footnote markers become literal text;
// - images become links to the image (their alt text is the link text);
// - reference links are resolved into ordinary links (a definition no link uses renders nothing
//   in Markdown either, so it is not kept).

type Context = { definitions: Map<string, Definition> };

type Marks = ReadonlyArray<TextFormatType>;

/** `marks` with `mark` added once: `*_foo_*` is italic, not italic toggled twice. */
function withMark(marks: Marks, mark: TextFormatType): Marks {
  return marks.includes(mark) ? marks : [...marks, mark];
}

function $text(value: string, marks: Marks): LexicalNode[] {
  if (value === "") return [];
  // A soft line break renders as a space: the editor shows the paragraph as Markdown renders it.
  const node = $createTextNode(value.replace(/[ \t]*\r?\n[ \t]*/g, " "));
  for (const mark of marks) node.toggleFormat(mark);
  return [node];
}

function $link(url: string, title: string | null | undefined): LinkNode {
  return $createLinkNode(url, { title: title ?? null });
}

function $phrasing(
  nodes: ReadonlyArray<PhrasingContent>,
  marks: Marks,
  context: Context,
  inLink = false,
): LexicalNode[] {
  const out: LexicalNode[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case "text":
        out.push(...$text(node.value, marks));
        break;
      case "break":
        out.push($createLineBreakNode());
        break;
      case "emphasis":
        out.push(...$phrasing(node.children, withMark(marks, "italic"), context, inLink));
        break;
      case "strong":
        out.push(...$phrasing(node.children, withMark(marks, "bold"), context, inLink));
        break;
      case "delete":
        out.push(...$phrasing(node.children, withMark(marks, "strikethrough"), context, inLink));
        break;
      case "inlineCode": {
        const code = $createTextNode(node.value);
        for (const mark of withMark(marks, "code")) code.toggleFormat(mark);
        out.push(code);
        break;
      }
      case "link":
        out.push($link(node.url, node.title).append(...$phrasing(node.children, marks, context, true)));
        break;
      case "linkReference": {
        const definition = context.definitions.get(node.identifier);
        const children = $phrasing(node.children, marks, context, true);
        if (definition === undefined) out.push(...$text("[", marks), ...children, ...$text("]", marks));
        else out.push($link(definition.url, definition.title).append(...children));
        break;
      }
      case "image":
      case "imageReference": {
        const target = node.type === "image" ? node : context.definitions.get(node.identifier);
        const alt = $text(node.alt ?? "", marks);
        // Links cannot nest: an image inside a link (a badge) keeps only its text.
        if (inLink || target === undefined) out.push(...alt);
        else out.push($link(target.url, target.title).append(...alt));
        break;
      }
      case "html": {
        // A token: typing next to it makes a new text node instead of merging into the tag. A tag
        // over several lines loses the lines' indentation, as a paragraph's lines do.
        const html = $markRawHtml($createTextNode(node.value.replace(/\n[ \t]+/g, "\n")).setMode("token"));
        for (const mark of marks) html.toggleFormat(mark);
        out.push(html);
        break;
      }
      case "footnoteReference":
        out.push(...$text(`[^${node.label ?? node.identifier}]`, marks));
        break;
    }
  }
  return out;
}

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
        const code = $createCodeNode(info || undefined);
        out.push(node.value === "" ? code : code.append($createTextNode(node.value)));
        break;
      }
      case "html":
        out.push($markRawHtml($createCodeNode("html").append($createTextNode(htmlBlockSource(node.value)))));
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
        const label = $createTextNode(`[^${node.label ?? node.identifier}]: `);
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

/** Parses `markdown` into new, unattached top-level nodes (inside an active update). */
export function $markdownToNodes(markdown: string): LexicalNode[] {
  const root = parseMarkdown(markdown);
  return $blocks(root.children, { definitions: linkDefinitions(root) });
}

/** The inline nodes of `markdown` read as one paragraph's content: other blocks flatten to their text. */
export function $markdownToInline(markdown: string): LexicalNode[] {
  const out: LexicalNode[] = [];
  for (const block of $markdownToNodes(markdown)) {
    if (out.length > 0) out.push($createTextNode(" "));
    if ($isParagraphNode(block) || $isHeadingNode(block)) out.push(...block.getChildren());
    else out.push($createTextNode(block.getTextContent()));
  }
  return out;
}
