import { $getRoot, type LexicalEditor } from "lexical";
import type { Nodes, Root } from "mdast";

// Test-only: what "keeps every character of text" means for the Markdown suites.

/** Every character of a Markdown document's text, in order: code, text, alt text and raw HTML. */
export function sourceText(root: Root): string {
  let out = "";
  const visit = (node: Nodes): void => {
    if (node.type === "text" || node.type === "inlineCode" || node.type === "code" || node.type === "html")
      out += node.value;
    else if (node.type === "image" || node.type === "imageReference") out += node.alt ?? "";
    if ("children" in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(root);
  return out;
}

const withoutSpace = (text: string) => text.replace(/\s+/g, "");

/** Whether `inner`'s characters all appear in `outer`, in order (whitespace aside). */
export function keepsText(outer: string, inner: string): boolean {
  const a = withoutSpace(outer);
  const b = withoutSpace(inner);
  let i = 0;
  for (let k = 0; k < a.length && i < b.length; k++) if (a[k] === b[i]) i++;
  return i === b.length;
}

export function documentText(editor: LexicalEditor): string {
  return editor.read(() => $getRoot().getTextContent());
}
