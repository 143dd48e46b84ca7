import { $isAutoLinkNode, $isLinkNode } from "@lexical/link";
import { $isElementNode, $isLineBreakNode, $isTextNode, type ElementNode, type TextNode } from "lexical";

// Inline Markdown export, written for speed (one pass, no per-node regex beyond escaping) and for
// round trips through @lexical/markdown's importer, which reads every form written here.

type Delimited = "bold" | "italic" | "strikethrough" | "highlight";
const DELIMITERS: ReadonlyArray<[Delimited, string]> = [
  ["bold", "**"],
  ["italic", "*"],
  ["strikethrough", "~~"],
  ["highlight", "=="],
];
const TAG: Record<Delimited, string> = { bold: "**", italic: "*", strikethrough: "~~", highlight: "==" };

/** Escapes characters the importer would read as Markdown syntax. */
export function escapeMarkdownText(text: string): string {
  return (
    text
      .replace(/&(?=#\d+;)/g, "&#38;")
      // The importer's link rule ignores a backslash before "[", so would-be links get a reference.
      .replace(/\[(?=[^\]]*\]\()/g, "&#91;")
      .replace(/\](?=\(|$)/g, "&#93;")
      .replace(/[\\*_`~[]/g, "\\$&")
      .replace(/=(?==)/g, "\\=")
  );
}

/** A code span: a fence longer than any run of backticks inside, padded when needed. */
export function codeSpan(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  const pad = /^[ `]|[ `]$/.test(text) ? " " : "";
  return fence + pad + text + pad + fence;
}

type Writer = { out: string; open: Delimited[]; pendingSpace: string; inLink: boolean };

function closeFrom(writer: Writer, index: number): void {
  for (let i = writer.open.length - 1; i >= index; i--) {
    const format = writer.open[i];
    if (format !== undefined) writer.out += TAG[format];
  }
  writer.open.length = index;
}

function writeText(writer: Writer, node: TextNode): void {
  const raw = node.getTextContent();
  if (raw === "") return;
  const isCode = node.hasFormat("code");
  const wanted = DELIMITERS.filter(([format]) => node.hasFormat(format)).map(([format]) => format);
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(raw);
  const lead = isCode ? "" : (match?.[1] ?? "");
  const core = isCode ? raw : (match?.[2] ?? raw);
  const trail = isCode ? "" : (match?.[3] ?? "");
  let keep = 0;
  while (keep < writer.open.length && wanted.includes(writer.open[keep] as Delimited)) keep++;
  closeFrom(writer, keep);
  if (core === "") {
    // Whitespace only: it closes what it lacks but opens nothing (tags must touch text).
    writer.pendingSpace += raw;
    return;
  }
  writer.out += writer.pendingSpace + lead;
  // An opening `*` right after a closing `*` would read as one run: separate them.
  for (const format of wanted) {
    if (writer.open.includes(format)) continue;
    writer.open.push(format);
    writer.out += TAG[format];
  }
  // The importer ends link text at the first "]" whatever escapes it, so brackets there go as references.
  const escaped = escapeMarkdownText(core);
  writer.out += isCode
    ? codeSpan(core)
    : writer.inLink
      ? escaped.replace(/\\\[/g, "&#91;").replace(/\]/g, "&#93;")
      : escaped;
  writer.pendingSpace = trail;
}

function writeChildren(writer: Writer, element: ElementNode): void {
  for (let child = element.getFirstChild(); child !== null; child = child.getNextSibling()) {
    if ($isTextNode(child)) writeText(writer, child);
    else if ($isLineBreakNode(child)) {
      closeFrom(writer, 0);
      writer.out += `${writer.pendingSpace}\n`;
      writer.pendingSpace = "";
    } else if ($isLinkNode(child) && !$isAutoLinkNode(child)) {
      closeFrom(writer, 0);
      writer.out += `${writer.pendingSpace}[${$inlineMarkdown(child, true)}](${linkDestination(child.getURL())})`;
      writer.pendingSpace = "";
    } else if ($isElementNode(child)) writeChildren(writer, child);
    else writer.pendingSpace += child.getTextContent();
  }
}

function linkDestination(url: string): string {
  if (url === "" || /\s/.test(url)) return `<${url.replace(/[\\<>]/g, "\\$&").replace(/\n/g, "&#10;")}>`;
  return url.replace(/&(?=#\d+;)/g, "&#38;").replace(/[\\()]/g, "\\$&");
}

/** The inline content of `element` as Markdown (formats, code spans, links, line breaks). */
export function $inlineMarkdown(element: ElementNode, inLink = false): string {
  const writer: Writer = { out: "", open: [], pendingSpace: "", inLink };
  writeChildren(writer, element);
  closeFrom(writer, 0);
  return writer.out + writer.pendingSpace;
}
