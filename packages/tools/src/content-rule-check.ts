import { hasForbiddenControl, MAX_NESTING_DEPTH, MAX_TABLE_CELLS, MAX_TABLE_COLUMNS } from "@coauthor/types";
import { $isCodeNode } from "@lexical/code";
import { $isLinkNode } from "@lexical/link";
import { $isTableNode } from "@lexical/table";
import { $isElementNode, $isRootNode, $isTextNode, type LexicalNode } from "lexical";
import type { Nodes, RootContent } from "mdast";

// The content rule (@coauthor/types content-rule.ts) applied to parsed content: mdast tables
// before they become editor nodes, and editor nodes before they enter a document. Every walk here
// is iterative, so content of any depth is measured without recursion.

/** What a table of `rows` rows, the widest `columns` wide, breaks of the rule; null when nothing. */
export function tableSizeBreak(rows: number, columns: number): string | null {
  if (columns > MAX_TABLE_COLUMNS) return `a table of more than ${MAX_TABLE_COLUMNS} columns`;
  if (rows * columns > MAX_TABLE_CELLS)
    return `a table of more than ${MAX_TABLE_CELLS.toLocaleString("en-US")} cells`;
  return null;
}

/**
 * The first table inside the mdast `block` that breaks the rule, as the rule's words; null when
 * none does. Tables sit in block containers only, so inline content is not searched.
 */
export function markdownTableBreak(block: RootContent): string | null {
  const pending: Nodes[] = [block];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.type === "table") {
      // A loop, not Math.max(...rows): a table may have more rows than a call takes arguments.
      let columns = 1;
      for (const row of node.children) columns = Math.max(columns, row.children.length);
      const problem = tableSizeBreak(node.children.length, columns);
      if (problem !== null) return problem;
    } else if (
      node.type === "blockquote" ||
      node.type === "list" ||
      node.type === "listItem" ||
      node.type === "footnoteDefinition"
    ) {
      for (const child of node.children) pending.push(child);
    }
  }
  return null;
}

/** How deep `node` sits: a top-level block is 1, its element children 2, and so on (0 for the root). */
export function $elementDepth(node: LexicalNode): number {
  let depth = 0;
  for (let at: LexicalNode | null = node; at !== null && !$isRootNode(at); at = at.getParent()) depth++;
  return depth;
}

/**
 * The first way `nodes` break the content rule once placed under a parent at depth `parentDepth`
 * (0: they are top-level blocks), in the rule's words ("nesting deeper than 64 levels"); null
 * when they keep it. Checks nesting, table size and control characters in text and link targets.
 */
export function $contentRuleBreak(nodes: ReadonlyArray<LexicalNode>, parentDepth = 0): string | null {
  const pending: { node: LexicalNode; depth: number }[] = nodes.map((node) => ({
    node,
    depth: parentDepth + 1,
  }));
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node, depth } = next;
    if ($isTextNode(node)) {
      if (hasForbiddenControl(node.getTextContent())) return "a control character";
      continue;
    }
    if (!$isElementNode(node)) continue;
    if (depth > MAX_NESTING_DEPTH) return `nesting deeper than ${MAX_NESTING_DEPTH} levels`;
    if ($isLinkNode(node) && hasForbiddenControl(`${node.getURL()}${node.getTitle() ?? ""}`))
      return "a control character";
    if ($isCodeNode(node) && hasForbiddenControl(node.getLanguage() ?? "")) return "a control character";
    if ($isTableNode(node)) {
      let rows = 0;
      let columns = 0;
      for (let row = node.getFirstChild(); row !== null; row = row.getNextSibling()) {
        rows++;
        if ($isElementNode(row)) columns = Math.max(columns, row.getChildrenSize());
      }
      const problem = tableSizeBreak(rows, columns);
      if (problem !== null) return problem;
    }
    for (const child of node.getChildren()) pending.push({ node: child, depth: depth + 1 });
  }
  return null;
}
