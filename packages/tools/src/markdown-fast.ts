import { $isCodeNode } from "@lexical/code";
import { $isHorizontalRuleNode } from "@lexical/extension";
import { $isLinkNode } from "@lexical/link";
import { $isListItemNode, $isListNode, type ListNode } from "@lexical/list";
import { $isHeadingNode, $isQuoteNode } from "@lexical/rich-text";
import {
  $isElementNode,
  $isLineBreakNode,
  $isParagraphNode,
  $isTextNode,
  type ElementNode,
  type LexicalNode,
} from "lexical";
import { $isRawHtml } from "./markdown-raw-html.ts";

// The export's fast path: blocks of plain writing (paragraphs, headings, quotes, tight lists, code
// blocks, rules) whose text needs no escaping are written straight from the editor's nodes,
// skipping mdast and mdast-util-to-markdown's escape patterns (cold export of 10,000 blocks: 471
// ms without it, 81 ms with it). Anything this writer is not sure of returns null and goes the
// general way (markdown-write.ts). A property in round-trip.test.ts checks that its output reads
// back as the general writer's; the spec, corpus and round-trip suites run through both paths.

/**
 * Text made only of letters, digits, spaces and `,;'"?.` needs no escaping anywhere in a block,
 * unless it starts or ends with a space, starts like an ordered list item (`1.`) or holds `www.`
 * (a GFM autolink).
 */
export const PLAIN_TEXT =
  /^(?![\d.]+\.|.*[wW]{3}\.)[\p{L}\p{N},;'"?.](?:[\p{L}\p{N} ,;'"?.]*[\p{L}\p{N},;'"?.])?$/u;
/** A link destination that needs neither angle brackets nor escapes (`&` could start a reference). */
const PLAIN_URL = /^[A-Za-z0-9\-._~:/?#@!$'*+,;=%]+$/;
/** A code block's info string that needs no escapes: a plain language word, then its meta. */
const PLAIN_INFO = /^(?:[A-Za-z0-9_+#.-]+(?: [^`\\&]*)?)?$/;
/** Code span content that needs a single backtick fence and no padding. */
const PLAIN_CODE = /^[^`\s\n](?:[^`\n]*[^`\s\n])?$/;
/** Marks a formatted run may carry, written outermost first. */
const DELIMITERS = [
  ["bold", "**"],
  ["italic", "*"],
  ["strikethrough", "~~"],
] as const;
/** Formats that cannot be written in Markdown at all: such text takes the general path. */
const UNWRITABLE = ["underline", "highlight", "subscript", "superscript"] as const;

const ALNUM = /[\p{L}\p{N}]/u;

/**
 * The inline content of `element` as Markdown, or null when it holds anything but plain text,
 * formatted runs and simple links. Delimiters must open and close where written: a formatted run
 * touches a neighbour only through a letter or digit (CommonMark's flanking rules), never another
 * formatted run.
 */
function $fastInline(element: ElementNode, allowBreaks: boolean, lineBreak: string): string | null {
  let out = "";
  // What the last written piece ends with, for the next one's left edge.
  let previous: "space" | "word" | "touchable" | "formatted" = "space";
  // The marks of the last formatted run while only spaces follow it: a run sharing one of them
  // goes the general way, which keeps the mark open across the space (`~~a **b**~~`).
  let recentMarks: string[] = [];
  for (let child = element.getFirstChild(); child !== null; child = child.getNextSibling()) {
    if ($isLineBreakNode(child)) {
      recentMarks = [];
      if (!allowBreaks || previous === "space") return null;
      out += lineBreak;
      previous = "space";
      continue;
    }
    if ($isLinkNode(child)) {
      const text = child.getTextContent();
      const only = child.getFirstChild();
      if (child.getChildrenSize() !== 1 || !$isTextNode(only) || only.getFormat() !== 0) return null;
      if (!PLAIN_TEXT.test(text) || !PLAIN_URL.test(child.getURL()) || child.getTitle()) return null;
      if (previous === "formatted" || previous === "touchable") return null;
      out += `[${text}](${child.getURL()})`;
      previous = "formatted";
      continue;
    }
    if (!$isTextNode(child) || $isRawHtml(child) || UNWRITABLE.some((format) => child.hasFormat(format)))
      return null;
    const text = child.getTextContent();
    if (text.length === 0) continue;
    if (child.getFormat() === 0) {
      for (const piece of text.split(" ")) if (piece !== "" && !PLAIN_TEXT.test(piece)) return null;
      // No run of spaces, no space where a line starts (the parser drops it), and a formatted
      // run is touched only through a letter or digit.
      if (/ {2}/.test(text) || (text.startsWith(" ") && previous === "space")) return null;
      if (previous === "formatted" && !text.startsWith(" ")) return null;
      if (
        previous === "touchable" &&
        !text.startsWith(" ") &&
        !ALNUM.test(text.charAt(0)) &&
        !/^[,;.?]/.test(text)
      )
        return null;
      out += text;
      previous = text.endsWith(" ") ? "space" : "word";
      if (text.trim() !== "") recentMarks = [];
      continue;
    }
    const code = child.hasFormat("code");
    // As in the general writer, a space at a formatted run's edge is written outside its delimiters.
    const lead = !code && text.startsWith(" ") ? " " : "";
    const trail = !code && text.length > 1 && text.endsWith(" ") ? " " : "";
    const core = text.slice(lead.length, text.length - trail.length);
    if (lead !== "") {
      if (previous === "space") return null;
      out += " ";
      previous = "space";
    }
    if (previous === "formatted" || previous === "touchable") return null;
    if (code ? !PLAIN_CODE.test(core) : !PLAIN_TEXT.test(core)) return null;
    const marks = DELIMITERS.filter(([format]) => child.hasFormat(format)).map(([format]) => format);
    if (marks.some((mark) => recentMarks.includes(mark))) return null;
    recentMarks = marks;
    const delimited = marks.length > 0;
    // An opening delimiter after a word must be followed by a letter or digit.
    if (previous === "word" && delimited && (code || !ALNUM.test(core.charAt(0)))) return null;
    let written = code ? `\`${core}\`` : core;
    for (let i = DELIMITERS.length - 1; i >= 0; i--) {
      const [format, delimiter] = DELIMITERS[i] as (typeof DELIMITERS)[number];
      if (child.hasFormat(format)) written = delimiter + written + delimiter;
    }
    out += written;
    // A closing delimiter after a letter or digit may touch what follows; a bare code span too.
    previous = !delimited || (!code && ALNUM.test(core.charAt(core.length - 1))) ? "touchable" : "formatted";
    if (trail !== "") {
      out += " ";
      previous = "space";
    }
  }
  // A block cannot end in a line break or a space.
  return previous === "space" && out.length > 0 ? null : out;
}

function $fastList(list: ListNode, indent: string, alternate: boolean): string | null {
  const type = list.getListType();
  const lines: string[] = [];
  let number = list.getStart();
  let itemIndent = indent;
  let afterNested = false;
  for (let item = list.getFirstChild(); item !== null; item = item.getNextSibling()) {
    if (!$isListItemNode(item)) return null;
    const only = item.getFirstChild();
    if (item.getChildrenSize() === 1 && $isListNode(only)) {
      // A nested list belongs to the item before it (Lexical keeps it in an item of its own); two
      // in a row would need different markers.
      if (lines.length === 0 || afterNested) return null;
      afterNested = true;
      const nested = $fastList(only, itemIndent, false);
      if (nested === null) return null;
      lines.push(nested);
      continue;
    }
    afterNested = false;
    if (item.getChildren().some((child) => $isElementNode(child) && !child.isInline())) return null;
    const marker = type === "number" ? `${number}${alternate ? ")" : "."}` : alternate ? "*" : "-";
    number++;
    const text = $fastInline(item, false, "");
    if (text === null || text === "") return null;
    const check = type === "check" ? (item.getChecked() ? "[x] " : "[ ] ") : "";
    lines.push(`${indent}${marker} ${check}${text}`);
    itemIndent = `${indent}${" ".repeat(marker.length + 1)}`;
  }
  return lines.length === 0 ? null : lines.join("\n");
}

/** `block` as Markdown when it is plain enough for the fast path; null otherwise. */
export function $fastBlockMarkdown(block: LexicalNode, alternate: boolean): string | null {
  if ($isParagraphNode(block)) return $fastInline(block, true, "\\\n");
  if ($isHeadingNode(block)) {
    const text = $fastInline(block, false, "");
    return text === null || text === "" ? null : `${"#".repeat(Number(block.getTag().slice(1)))} ${text}`;
  }
  if ($isQuoteNode(block)) {
    const text = $fastInline(block, true, "\\\n> ");
    return text === null || text === "" ? null : `> ${text}`;
  }
  if ($isListNode(block)) return $fastList(block, "", alternate);
  if ($isCodeNode(block)) {
    if ($isRawHtml(block)) return null;
    const language = block.getLanguage() ?? "";
    const text = block.getTextContent();
    if (!PLAIN_INFO.test(language) || text.includes("```")) return null;
    return `\`\`\`${language}\n${text === "" ? "" : `${text}\n`}\`\`\``;
  }
  if ($isHorizontalRuleNode(block)) return "---";
  return null;
}
