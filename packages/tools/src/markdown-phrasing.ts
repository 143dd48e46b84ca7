import { $isLinkNode } from "@lexical/link";
import {
  $isElementNode,
  $isLineBreakNode,
  $isTextNode,
  type ElementNode,
  type LexicalNode,
  type TextNode,
} from "lexical";
import type { Link, PhrasingContent } from "mdast";
import { $isRawHtml } from "./markdown-raw-html.ts";

// Lexical's inline nodes → mdast phrasing content, for markdown-write.ts.

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

export function phrasingOf(nodes: ReadonlyArray<LexicalNode>): PhrasingContent[] {
  const writer = new PhrasingWriter();
  for (const node of nodes) writer.node(node);
  return writer.finish();
}

/** The inline content of `element` as mdast phrasing content. */
export function $phrasing(element: ElementNode): PhrasingContent[] {
  return phrasingOf(element.getChildren());
}
