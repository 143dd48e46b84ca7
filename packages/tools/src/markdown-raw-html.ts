import { $getState, $setState, createState, type LexicalNode } from "lexical";

/**
 * Marks HTML of the Markdown a node was read from: a code block holding a raw HTML block, or a
 * token text node holding an inline tag (`<img src=…>`, `<br>`). The editor shows it as HTML source
 * (it renders no HTML: that would be a door for script); Markdown export writes it back verbatim,
 * so a document's HTML survives its round trips. Kept in the node's state, so it travels through
 * the editor-state JSON and the Yjs document with the node.
 */
const rawHtmlState = createState("rawHtml", { parse: (value) => value === true });

export function $markRawHtml<T extends LexicalNode>(node: T): T {
  return $setState(node, rawHtmlState, true);
}

export function $isRawHtml(node: LexicalNode): boolean {
  return $getState(node, rawHtmlState);
}
