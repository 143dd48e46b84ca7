import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Element, ElementContent, RootContent as HastContent, Root as HastRoot } from "hast";
import { fromHtml } from "hast-util-from-html";
import { toHtml } from "hast-util-to-html";
import { $getRoot, type LexicalEditor } from "lexical";
import type { List, Nodes, Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { toHast } from "mdast-util-to-hast";
import { describe, expect, it } from "vitest";
import { createDocumentEditor } from "./document-editor.ts";
import { exportMarkdown } from "./markdown.ts";
import { documentText, keepsText, sourceText } from "./markdown-checks.ts";
import { parseMarkdown } from "./markdown-syntax.ts";
import { $toMdast } from "./markdown-write.ts";

/**
 * The CommonMark spec (the `commonmark-spec` package: every example with its reference HTML) and
 * the GFM spec's extension examples, as the peer's test suite for our Markdown:
 * - every example: import → export → import → export is a fixed point, and the document keeps
 *   every character of the example's text;
 * - every example whose constructs the editor holds: the imported document, rendered to HTML,
 *   equals the reference HTML after `normalizeHtml` below.
 * The pass rate per section is printed; docs/markdown.md lists what the editor does not hold.
 */

type Example = { example: number; section: string; markdown: string; html: string };

const require = createRequire(import.meta.url);
const commonmark = (
  require("commonmark-spec") as {
    tests: { number: number; section: string; markdown: string; html: string }[];
  }
).tests;
const gfm = JSON.parse(
  readFileSync(new URL("../fixtures/gfm-spec-extensions.json", import.meta.url), "utf8"),
) as {
  examples: Example[];
};
// The spec writes tabs as "→".
const examples: Example[] = [
  ...commonmark.map((test) => ({
    example: test.number,
    section: test.section,
    markdown: test.markdown,
    html: test.html,
  })),
  ...gfm.examples,
].map((test) => ({
  ...test,
  markdown: test.markdown.replace(/→/g, "\t"),
  html: test.html.replace(/→/g, "\t"),
}));

/**
 * Why an example's constructs are beyond what the editor holds (null when it holds them all). The
 * editor keeps their text, in the documented form, but cannot render them as the reference does.
 */
function unsupported(root: Root): string | null {
  let reason: string | null = null;
  const visit = (node: Nodes, parent: Nodes | null): void => {
    if (reason !== null) return;
    if (node.type === "html") reason = "raw HTML";
    else if (node.type === "image" || node.type === "imageReference") reason = "image (kept as a link)";
    else if (node.type === "footnoteDefinition" || node.type === "footnoteReference") reason = "footnote";
    else if (node.type === "listItem" && node.children[0]?.type === "list" && parent?.type === "list")
      reason = "list item that opens with a nested list";
    else if (node.type === "listItem") {
      const nested = node.children.findIndex((child) => child.type === "list");
      if (nested !== -1 && nested < node.children.length - 1)
        reason = "blocks after a nested list in one item";
    } else if (
      node.type === "list" &&
      node.children.some((item) => item.checked === null || item.checked === undefined) &&
      node.children.some((item) => typeof item.checked === "boolean")
    )
      reason = "task and plain items in one list";
    else if (
      "children" in node &&
      node.children.some(
        (child, i) =>
          child.type === "list" &&
          node.children[i - 1]?.type === "list" &&
          listKind(child) === listKind(node.children[i - 1] as List),
      )
    )
      reason = "two lists of one kind in a row (the editor joins them)";
    else if (node.type === "table") {
      const width = node.children[0]?.children.length ?? 0;
      if (node.children.some((row) => row.children.length > width))
        reason = "table row wider than its header";
    }
    if ("children" in node) for (const child of node.children) visit(child as Nodes, node);
  };
  visit(root, null);
  return reason;
}

function listKind(list: List): string {
  return list.children.some((item) => typeof item.checked === "boolean")
    ? "check"
    : list.ordered
      ? "number"
      : "bullet";
}

/** The imported document rendered as HTML, through the same mdast the exporter writes. */
function renderHtml(editor: LexicalEditor): string {
  return editor.read(() => {
    const root: Root = { type: "root", children: $getRoot().getChildren().flatMap($toMdast) };
    return toHtml(toHast(root));
  });
}

const BLOCKS = new Set([
  "p",
  "li",
  "ul",
  "ol",
  "blockquote",
  "pre",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "table",
  "thead",
  "tbody",
  "tr",
  "td",
  "th",
  "hr",
]);
const MARKS = new Set(["em", "strong", "del", "s"]);

type HastParent = HastRoot | Element;
type HastChild = HastContent | ElementContent;

/**
 * Formatting per character, as the editor stores it: em/strong/del wrappers are replaced by a span
 * naming the marks on each word (whitespace carries none), so `<em>a <a>b</a></em>` and
 * `<em>a</em> <a><em>b</em></a>`, or `<em><em>a</em></em>` and `<em>a</em>`, compare equal.
 */
function flattenMarks(children: ReadonlyArray<HastChild>, marks: ReadonlyArray<string>): HastChild[] {
  const out: HastChild[] = [];
  const marked = (node: HastChild): HastChild =>
    marks.length === 0
      ? node
      : {
          type: "element",
          tagName: "span",
          properties: { dataMarks: [...marks].sort().join(" ") },
          children: [node as ElementContent],
        };
  for (const child of children) {
    if (child.type === "text") {
      for (const token of child.value.split(/(\s+)/)) {
        if (token === "") continue;
        out.push(
          /^\s+$/.test(token) ? { type: "text", value: token } : marked({ type: "text", value: token }),
        );
      }
    } else if (child.type === "element" && MARKS.has(child.tagName)) {
      const mark = child.tagName === "s" ? "del" : child.tagName;
      out.push(...flattenMarks(child.children, marks.includes(mark) ? marks : [...marks, mark]));
    } else if (child.type === "element" && (child.tagName === "code" || child.tagName === "br")) {
      out.push(marked(child));
    } else if (child.type === "element") {
      out.push({ ...child, children: flattenMarks(child.children, marks) as ElementContent[] });
    } else out.push(child);
  }
  // Neighbours with the same marks merge (`<em>fo</em><em>o</em>` is one word).
  const merged: HastChild[] = [];
  for (const node of out) {
    const last = merged[merged.length - 1];
    if (last?.type === "text" && node.type === "text") last.value += node.value;
    else if (
      last?.type === "element" &&
      node.type === "element" &&
      last.tagName === "span" &&
      node.tagName === "span" &&
      last.properties.dataMarks === node.properties.dataMarks &&
      last.children[0]?.type === "text" &&
      node.children[0]?.type === "text"
    )
      (last.children[0] as { value: string }).value += (node.children[0] as { value: string }).value;
    else merged.push(node);
  }
  return merged;
}

/**
 * The normalisation before comparing HTML: both sides are parsed as HTML (entity spelling does not
 * matter) and attributes sorted; whitespace between and at the edges of block elements is dropped
 * and runs of whitespace become one space (outside <pre>); class attributes other than a code
 * block's language are dropped (task-list classes are presentation); formatting is compared per
 * word (`flattenMarks`).
 */
function normalizeHtml(html: string): string {
  const tree = fromHtml(html, { fragment: true });
  const clean = (node: HastParent, inPre: boolean): void => {
    const children: HastChild[] = [];
    for (const child of node.children) {
      if (child.type === "comment") continue;
      if (child.type === "text" && !inPre) {
        const value = child.value.replace(/\s+/g, " ");
        if (value === " ") {
          const prev = children[children.length - 1];
          if (prev === undefined || (prev.type === "element" && BLOCKS.has(prev.tagName))) continue;
        }
        children.push({ ...child, value });
        continue;
      }
      if (child.type === "element") {
        const className = child.properties.className;
        if (Array.isArray(className)) {
          const kept = className.filter((name) => String(name).startsWith("language-"));
          if (kept.length > 0) child.properties.className = kept;
          else delete child.properties.className;
        }
        child.properties = Object.fromEntries(
          Object.entries(child.properties).sort(([a], [b]) => a.localeCompare(b)),
        );
        clean(child, inPre || child.tagName === "pre");
      }
      children.push(child);
    }
    // Whitespace at the edges of a block and before a block element is not content.
    if (!inPre && (node.type === "root" || BLOCKS.has(node.tagName))) {
      for (let i = 0; i < children.length; i++) {
        const child = children[i];
        const next = children[i + 1];
        if (child?.type !== "text") continue;
        if (i === 0) child.value = child.value.trimStart();
        if (next === undefined || (next.type === "element" && BLOCKS.has(next.tagName)))
          child.value = child.value.trimEnd();
      }
    }
    const kept = children.filter((child) => child.type !== "text" || child.value !== "");
    node.children = kept as typeof node.children;
  };
  clean(tree, false);
  tree.children = flattenMarks(tree.children, []) as typeof tree.children;
  return toHtml(tree);
}

/** Examples where micromark, our parser, deliberately differs from the spec's reference renderer. */
const PARSER_DIFFERENCES = new Map<number, string>([
  [628, "micromark links literal URLs as github.com does, which does not link ftp://"],
]);

/** Whether GFM's extensions read a CommonMark example differently (then the GFM spec is the reference). */
function gfmReadsDifferently(markdown: string): boolean {
  const commonmarkOnly = normalizeHtml(toHtml(toHast(fromMarkdown(markdown))));
  return commonmarkOnly !== normalizeHtml(toHtml(toHast(parseMarkdown(markdown))));
}

type Outcome = {
  example: Example;
  fixedPoint: boolean;
  textKept: boolean;
  html: "same" | "different" | string;
};

function check(example: Example): Outcome {
  const source = parseMarkdown(example.markdown);
  const first = createDocumentEditor({ markdown: example.markdown });
  const once = exportMarkdown(first);
  const second = createDocumentEditor({ markdown: once });
  const twice = exportMarkdown(second);
  const reason =
    PARSER_DIFFERENCES.get(example.example) ??
    (example.section.endsWith("(extension)") || !gfmReadsDifferently(example.markdown)
      ? unsupported(source)
      : "read differently with GFM (an autolink literal)");
  return {
    example,
    fixedPoint: once === twice,
    textKept:
      keepsText(documentText(first), sourceText(source)) && documentText(first) === documentText(second),
    html: reason ?? (normalizeHtml(renderHtml(first)) === normalizeHtml(example.html) ? "same" : "different"),
  };
}

const outcomes = examples.map(check);

/** What a failing example looks like, for the assertion message. */
function explain(example: Example): string {
  const first = createDocumentEditor({ markdown: example.markdown });
  const once = exportMarkdown(first);
  const twice = exportMarkdown(createDocumentEditor({ markdown: once }));
  const html = normalizeHtml(renderHtml(first));
  return JSON.stringify(
    { markdown: example.markdown, once, twice, html, reference: normalizeHtml(example.html) },
    null,
    1,
  );
}

describe("Markdown against the CommonMark and GFM specs", () => {
  it("prints the pass rate per section", () => {
    const sections = new Map<string, { total: number; supported: number; same: number; stable: number }>();
    for (const outcome of outcomes) {
      const row = sections.get(outcome.example.section) ?? { total: 0, supported: 0, same: 0, stable: 0 };
      row.total++;
      if (outcome.html === "same" || outcome.html === "different") row.supported++;
      if (outcome.html === "same") row.same++;
      if (outcome.fixedPoint && outcome.textKept) row.stable++;
      sections.set(outcome.example.section, row);
    }
    const lines = [...sections].map(
      ([section, row]) =>
        `${section.padEnd(34)} ${String(row.total).padStart(4)} examples  round trip ${row.stable}/${row.total}  HTML ${row.same}/${row.supported} supported`,
    );
    console.log(`Markdown spec examples (${outcomes.length})\n${lines.join("\n")}`);
    expect(sections.size).toBeGreaterThan(20);
  });

  it.each(
    outcomes.map((outcome) => [`${outcome.example.section} #${outcome.example.example}`, outcome] as const),
  )("%s: a fixed point that keeps the text, and the reference HTML where supported", (_name, outcome) => {
    const ok = outcome.fixedPoint && outcome.textKept && outcome.html !== "different";
    expect(
      {
        fixedPoint: outcome.fixedPoint,
        textKept: outcome.textKept,
        html: outcome.html === "different" ? "different" : "ok",
      },
      ok ? undefined : explain(outcome.example),
    ).toEqual({
      fixedPoint: true,
      textKept: true,
      html: "ok",
    });
  });
});
