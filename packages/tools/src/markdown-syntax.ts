import type { Definition, FootnoteDefinition, Nodes, Root, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { refuseContent } from "./content-problem.ts";
import { CHUNK_THRESHOLD, splitTopLevel } from "./markdown-chunks.ts";
import { markdownSourceProblem } from "./markdown-limits.ts";

// Markdown text → its syntax tree (mdast): micromark with the GFM extensions, after the pre-scan
// (markdown-limits.ts), long documents in runs of top-level blocks (markdown-chunks.ts says why),
// and the link definitions a tree makes.

const micromarkExtensions = [gfm()];
const mdastExtensions = [gfmFromMarkdown()];

function parseWhole(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: micromarkExtensions, mdastExtensions });
}

type AnyDefinition = Definition | FootnoteDefinition;

/** Every link and footnote definition of `root`, at any depth, in document order. */
function definitionsOf(root: Root): AnyDefinition[] {
  const out: AnyDefinition[] = [];
  // Definitions sit only in block containers: inline content and tables are not searched.
  const visit = (nodes: ReadonlyArray<RootContent>) => {
    for (const node of nodes) {
      if (node.type === "definition" || node.type === "footnoteDefinition") out.push(node);
      if ("children" in node && node.type !== "paragraph" && node.type !== "heading" && node.type !== "table")
        visit(node.children as RootContent[]);
    }
  };
  visit(root.children);
  return out;
}

/** Moves the lines of every position in `nodes` by `lines`, so a chunk's tree names the document's lines. */
function shiftLines(nodes: ReadonlyArray<RootContent>, lines: number): void {
  if (lines === 0) return;
  // Iterative: inline content may nest as deep as the pre-scan allows.
  const pending: Nodes[] = [...nodes];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.position) {
      node.position.start.line += lines;
      node.position.end.line += lines;
    }
    if ("children" in node) for (const child of node.children) pending.push(child);
  }
}

/** A definition written back as one line of Markdown (a footnote's content is not needed to resolve it). */
function definitionSource(node: AnyDefinition): string {
  const label = node.label ?? node.identifier;
  if (node.type === "footnoteDefinition") return `[^${label}]: -`;
  const url = `<${node.url.replace(/[\\<>]/g, "\\$&")}>`;
  const title =
    node.title === null || node.title === undefined ? "" : ` "${node.title.replace(/["\\]/g, "\\$&")}"`;
  return `[${label}]: ${url}${title}`;
}

/**
 * Parses `markdown` as CommonMark + GFM into its syntax tree; throws InvalidContentError, before
 * parsing, when the pre-scan refuses it. A long document is parsed in runs of top-level blocks of
 * at least `minChunk` characters (see markdown-chunks.ts); a run that may use a definition made
 * in another run is parsed again with the document's winning definitions (the first of each
 * label) before it, and the nodes those lines make are dropped. Positions' lines are the
 * document's; their offsets and columns, a run's.
 */
export function parseMarkdown(markdown: string, options: { minChunk?: number } = {}): Root {
  refuseContent(markdownSourceProblem(markdown));
  const minChunk =
    options.minChunk ?? (markdown.length < CHUNK_THRESHOLD ? Number.POSITIVE_INFINITY : CHUNK_THRESHOLD / 4);
  if (minChunk >= markdown.length) return parseWhole(markdown);
  const chunks = splitTopLevel(markdown, minChunk);
  if (chunks.length === 1) return parseWhole(markdown);
  const trees = chunks.map(parseWhole);
  const winners = new Map<string, { chunk: number; node: AnyDefinition }>();
  trees.forEach((tree, chunk) => {
    for (const node of definitionsOf(tree)) {
      const key = `${node.type}:${node.identifier}`;
      if (!winners.has(key)) winners.set(key, { chunk, node });
    }
  });
  const children: RootContent[] = [];
  // The document line each chunk starts at, less one.
  let linesBefore = 0;
  trees.forEach((tree, chunk) => {
    const borrowed = [...winners.values()]
      .filter((winner) => winner.chunk !== chunk)
      .map((winner) => winner.node);
    const source = chunks[chunk] ?? "";
    const startLine = linesBefore;
    linesBefore += source.split("\n").length;
    if (borrowed.length === 0 || !source.includes("]")) {
      shiftLines(tree.children, startLine);
      children.push(...tree.children);
      return;
    }
    const prefix = borrowed.map(definitionSource);
    const reparsed = parseWhole(`${prefix.join("\n")}\n\n${source}`);
    const own = reparsed.children.filter(
      (node) => (node.position?.start.line ?? Number.POSITIVE_INFINITY) > prefix.length,
    );
    // The chunk's first line is the reparsed text's line prefix.length + 2 (after a blank line).
    shiftLines(own, startLine - prefix.length - 1);
    children.push(...own);
  });
  return { type: "root", children };
}

/** The link definitions of `root` by label; the first definition of a label wins, as in CommonMark. */
export function linkDefinitions(root: Root): Map<string, Definition> {
  const definitions = new Map<string, Definition>();
  for (const node of definitionsOf(root)) {
    if (node.type === "definition" && !definitions.has(node.identifier))
      definitions.set(node.identifier, node);
  }
  return definitions;
}
