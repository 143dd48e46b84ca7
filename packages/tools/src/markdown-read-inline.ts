// Markdown → Lexical, inline content: a block's phrasing (text with its marks, links, inline code,
// breaks, raw inline HTML) mapped onto text, link and line-break nodes. The blocks around it are
// markdown-parse.ts's.
import { withoutForbiddenControls } from "@coauthor/types";
import { $createLinkNode, type LinkNode } from "@lexical/link";
import { $createLineBreakNode, $createTextNode, type LexicalNode, type TextFormatType } from "lexical";
import type { Definition, PhrasingContent } from "mdast";
import { $markRawHtml } from "./markdown-raw-html.ts";

/** What reading a block needs from the whole document: its link definitions. */
export type MarkdownContext = { definitions: Map<string, Definition> };
type Context = MarkdownContext;

/**
 * Text the document may hold. Control characters are dropped rather than refused: they are
 * invisible, mean nothing in Markdown, and arrive from pastes and files by accident (a carriage
 * return becomes a newline); a character reference such as `&#13;` decodes to one too.
 */
export const clean = withoutForbiddenControls;

type Marks = ReadonlyArray<TextFormatType>;

/** `marks` with `mark` added once: `*_foo_*` is italic, not italic toggled twice. */
function withMark(marks: Marks, mark: TextFormatType): Marks {
  return marks.includes(mark) ? marks : [...marks, mark];
}

function $text(value: string, marks: Marks): LexicalNode[] {
  if (value === "") return [];
  // A soft line break renders as a space: the editor shows the paragraph as Markdown renders it.
  const node = $createTextNode(clean(value).replace(/[ \t]*\n[ \t]*/g, " "));
  for (const mark of marks) node.toggleFormat(mark);
  return [node];
}

function $link(url: string, title: string | null | undefined): LinkNode {
  return $createLinkNode(clean(url), { title: title ? clean(title) : null });
}

/** Phrasing content still to convert, with the marks around it and where its nodes go. */
type PhrasingFrame = {
  nodes: ReadonlyArray<PhrasingContent>;
  next: number;
  marks: Marks;
  inLink: boolean;
  out: LexicalNode[];
  /** Runs once every node of the frame is converted (a link takes its children then). */
  done?: () => void;
};

/**
 * Converts mdast phrasing content into Lexical's inline nodes. Iterative: emphasis and links nest
 * as deep as the pre-scan lets them (hundreds of levels), which a recursion would carry on the
 * stack.
 */
export function $phrasing(
  nodes: ReadonlyArray<PhrasingContent>,
  marks: Marks,
  context: Context,
  inLink = false,
): LexicalNode[] {
  const converted: LexicalNode[] = [];
  const frames: PhrasingFrame[] = [{ nodes, next: 0, marks, inLink, out: converted }];
  for (let frame = frames.at(-1); frame !== undefined; frame = frames.at(-1)) {
    const node = frame.nodes[frame.next++];
    if (node === undefined) {
      frames.pop();
      frame.done?.();
      continue;
    }
    const { marks, inLink, out } = frame;
    const inside = (children: ReadonlyArray<PhrasingContent>, childMarks: Marks) =>
      frames.push({ nodes: children, next: 0, marks: childMarks, inLink, out });
    const $inLink = (link: LinkNode, children: ReadonlyArray<PhrasingContent>) => {
      const linked: LexicalNode[] = [];
      out.push(link);
      frames.push({
        nodes: children,
        next: 0,
        marks,
        inLink: true,
        out: linked,
        done: () => link.append(...linked),
      });
    };
    switch (node.type) {
      case "text":
        out.push(...$text(node.value, marks));
        break;
      case "break":
        out.push($createLineBreakNode());
        break;
      case "emphasis":
        inside(node.children, withMark(marks, "italic"));
        break;
      case "strong":
        inside(node.children, withMark(marks, "bold"));
        break;
      case "delete":
        inside(node.children, withMark(marks, "strikethrough"));
        break;
      case "inlineCode": {
        const code = $createTextNode(clean(node.value));
        for (const mark of withMark(marks, "code")) code.toggleFormat(mark);
        out.push(code);
        break;
      }
      case "link":
        $inLink($link(node.url, node.title), node.children);
        break;
      case "linkReference": {
        const definition = context.definitions.get(node.identifier);
        if (definition !== undefined) {
          $inLink($link(definition.url, definition.title), node.children);
          break;
        }
        out.push(...$text("[", marks));
        frames.push({
          nodes: node.children,
          next: 0,
          marks,
          inLink: true,
          out,
          done: () => out.push(...$text("]", marks)),
        });
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
        const html = $markRawHtml(
          $createTextNode(clean(node.value).replace(/\n[ \t]+/g, "\n")).setMode("token"),
        );
        for (const mark of marks) html.toggleFormat(mark);
        out.push(html);
        break;
      }
      case "footnoteReference":
        out.push(...$text(`[^${node.label ?? node.identifier}]`, marks));
        break;
    }
  }
  return converted;
}
