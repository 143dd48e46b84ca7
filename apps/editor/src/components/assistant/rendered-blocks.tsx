import { parseMarkdown } from "@coauthor/tools";
import type { RootContent } from "mdast";
import { toString as plainText } from "mdast-util-to-string";
import type { ReactNode } from "react";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { textChanges } from "../editor/word-diff";
import { WordChanges } from "./word-changes";

// Versions shown as the document reads (headings, lists, emphasis, tables), not as Markdown
// source: react-markdown renders a block's Markdown (no raw HTML; unsafe link targets dropped), and
// a changed block is compared word by word inside the element it is (a heading stays a heading).

/** Markdown rendered as the document shows it. */
export function RenderedMarkdown({ markdown }: { markdown: string }) {
  return <Markdown remarkPlugins={[remarkGfm]}>{markdown}</Markdown>;
}

/** A block whose words can be compared inside one element: a heading, a paragraph, a quote. */
type TextBlock =
  | { kind: "heading"; depth: number; text: string }
  | { kind: "paragraph" | "quote"; text: string };

/** `markdown` as one text block, or null for a block that is more (a list, a table, code). */
function textBlockOf(markdown: string): TextBlock | null {
  const nodes: RootContent[] = parseMarkdown(markdown).children;
  const [node] = nodes;
  if (nodes.length !== 1 || node === undefined) return null;
  if (node.type === "heading") return { kind: "heading", depth: node.depth, text: plainText(node) };
  if (node.type === "paragraph") return { kind: "paragraph", text: plainText(node) };
  if (node.type === "blockquote" && node.children.length === 1 && node.children[0]?.type === "paragraph")
    return { kind: "quote", text: plainText(node) };
  return null;
}

function shell(block: TextBlock, children: ReactNode) {
  if (block.kind === "heading") {
    const Heading = `h${Math.min(Math.max(block.depth, 1), 6)}` as "h1";
    return <Heading>{children}</Heading>;
  }
  if (block.kind === "quote")
    return (
      <blockquote>
        <p>{children}</p>
      </blockquote>
    );
  return <p>{children}</p>;
}

/**
 * A block changed from `before` to `after`: a heading, paragraph or quote that stays one shows its
 * words compared in place; a change of kind (paragraph → heading), a list, a table or code shows
 * the old block struck through above the new one; a change of formatting only shows the new block.
 */
export function ChangedBlock({ before, after }: { before: string; after: string }) {
  const old = textBlockOf(before);
  const now = textBlockOf(after);
  const sameKind =
    old !== null &&
    now !== null &&
    old.kind === now.kind &&
    (old.kind !== "heading" || (now.kind === "heading" && old.depth === now.depth));
  if (sameKind && old.text === now.text) return <RenderedMarkdown markdown={after} />;
  if (sameKind) return shell(now, <WordChanges parts={textChanges(old.text, now.text)} />);
  return (
    <>
      <del className="block-removed">
        <RenderedMarkdown markdown={before} />
      </del>
      <ins className="block-added">
        <RenderedMarkdown markdown={after} />
      </ins>
    </>
  );
}
