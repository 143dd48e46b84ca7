/**
 * Splits a long Markdown document into runs of top-level blocks that parse the same on their own.
 *
 * Why: micromark rewrites its whole event list each time a container (a list item, a quote) closes,
 * so one parse costs O(n²) in the number of containers: 6 s for a 10,000-block document against
 * 0.2 s for a tenth of it. Parsing top-level runs separately keeps every parse small.
 *
 * A split is made only where no construct can continue: before a line that starts at column 0
 * after a blank line, is not a list item (a blank line between items keeps one loose list), and
 * is outside a fenced code block or an HTML block that ends on a marker rather than a blank line.
 * The scan is conservative: when it cannot tell, it does not split. Link and footnote definitions
 * are document-wide, so `parseMarkdown` hands every chunk the definitions of the others.
 * `markdown-chunks.test.ts` checks on every real document of the corpus that the chunks parse to
 * the same tree as the whole.
 */

const LIST_ITEM = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** HTML blocks (CommonMark types 1–5) that run past blank lines, with the marker that ends each. */
const HTML_BLOCKS: ReadonlyArray<[RegExp, RegExp]> = [
  [/^ {0,3}<(script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];

/** Documents shorter than this are parsed whole (the cost is quadratic only in long ones). */
export const CHUNK_THRESHOLD = 20_000;

/** The document cut into runs of whole top-level blocks, in order; joined they are the document. */
export function splitTopLevel(markdown: string, minChunk: number): string[] {
  const lines = markdown.split("\n");
  const chunks: string[] = [];
  let start = 0;
  let size = 0;
  let fence: { char: string; length: number } | null = null;
  let htmlEnd: RegExp | null = null;
  for (let i = 0; i < lines.length; i++) {
    // Tested without a CRLF document's "\r" (`.` and `$` do not match it).
    const line = (lines[i] ?? "").replace(/\r$/, "");
    const previousBlank = i > 0 && (lines[i - 1] ?? "").trim() === "";
    if (
      fence === null &&
      htmlEnd === null &&
      previousBlank &&
      size >= minChunk &&
      /^[^\s]/.test(line) &&
      !LIST_ITEM.test(line)
    ) {
      chunks.push(lines.slice(start, i).join("\n"));
      start = i;
      size = 0;
    }
    size += line.length + 2;
    if (fence !== null) {
      const close = new RegExp(`^ {0,3}${fence.char === "`" ? "`" : "~"}{${fence.length},}[ \\t]*$`);
      if (close.test(line)) fence = null;
      continue;
    }
    if (htmlEnd !== null) {
      if (htmlEnd.test(line)) htmlEnd = null;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open) {
      const marker = open[1] ?? "```";
      // A backtick fence's info string holds no backtick (else the line is a code span).
      if (!(marker.startsWith("`") && (open[2] ?? "").includes("`")))
        fence = { char: marker.charAt(0), length: marker.length };
      continue;
    }
    for (const [begin, end] of HTML_BLOCKS) {
      if (!begin.test(line)) continue;
      // The end marker may close the block on its first line (after the opening itself).
      if (!end.test(line.replace(begin, ""))) htmlEnd = end;
      break;
    }
  }
  chunks.push(lines.slice(start).join("\n"));
  return chunks;
}
