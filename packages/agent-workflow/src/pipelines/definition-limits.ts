import { CST, Lexer } from "yaml";

// What a recipe definition may be before the YAML parser sees it. The parser and the code after it
// (composing nodes, toJS, the schema) recurse once per level of nesting, and 30,000 nested
// sequences (60 KB) overflowed the stack: a 500, nothing caught. Aliases are how YAML bombs
// expand, and the parser's duplicate-key check compares every pair of a mapping's keys (14,000
// keys: 1.7 s). So one pass over the yaml package's own lexer (linear, no recursion: its tokens
// are exactly the parser's, so quoted and block scalars are never taken for structure) refuses:
// - nesting past MAX_DEFINITION_DEPTH, bounded conservatively: each flow collection (`[`, `{`)
//   is a level, and each block node opens at a column no outer one is right of, sharing a column
//   with at most one other (a sequence that is a mapping's value), so two levels per distinct
//   open column;
// - any alias (`*name`): a definition is small, and toJS refuses them too (maxAliasCount: 0);
// - more than MAX_DEFINITION_KEYS keys in all.

/**
 * Deepest nesting of collections a definition may have, as the scan counts it (the built-in
 * recipes nest 6 to 8 levels, which it counts as at most 17).
 */
export const MAX_DEFINITION_DEPTH = 64;

/** Most mapping keys a definition may have in all (a real recipe has a few hundred at most). */
export const MAX_DEFINITION_KEYS = 2_000;

/** The limits the pre-scan holds a definition to, unless a test narrows them. */
export interface DefinitionLimits {
  depth: number;
  keys: number;
}

const DEFINITION_LIMITS: DefinitionLimits = { depth: MAX_DEFINITION_DEPTH, keys: MAX_DEFINITION_KEYS };

/** What the pre-scan refused, and where (1-based). */
export interface DefinitionLimitProblem {
  line: number;
  column: number;
  message: string;
}

/** Tokens the lexer makes up (document and scalar markers): they hold no character of the source. */
const SYNTHETIC = new Set(["doc-mode", "scalar", "flow-error-end"]);
/** Tokens that place no node: layout, and properties that belong to the node after them. */
const LAYOUT = new Set(["space", "newline", "comment", "anchor", "tag", "byte-order-mark", "directive-line"]);
const BLOCK_INDICATORS = new Set(["seq-item-ind", "explicit-key-ind", "map-value-ind"]);

/**
 * The first way `text` goes past a recipe definition's limits, or null when it is safe to parse.
 * Linear in the length of the text.
 */
export function definitionLimitProblem(
  text: string,
  limits: DefinitionLimits = DEFINITION_LIMITS,
): DefinitionLimitProblem | null {
  let line = 1;
  let column = 0;
  let flowDepth = 0;
  let keys = 0;
  /** Columns of the block nodes that may still be open, increasing. */
  const blockColumns: number[] = [];
  /** Whether the next token is a scalar's source (after the lexer's scalar marker). */
  let scalarSource = false;
  /**
   * Where a block scalar (`|`, `>`) is: its header read, then the lexer's marker before its content
   * (lines of text, whatever they look like, no nodes).
   */
  let blockScalar: "none" | "header" | "marker" = "none";
  let firstOnLine = true;
  let afterIndicator = false;

  for (const token of new Lexer().lex(text)) {
    const lexed = CST.tokenType(token);
    // After the scalar marker comes the scalar's source, whatever it starts with (block scalar
    // content starts with its indentation), unless the scalar is empty and a line break follows.
    const type: string = scalarSource && lexed !== "newline" ? "scalar-source" : (lexed ?? "scalar-source");
    scalarSource = type === "scalar";
    const at = { line, column: column + 1 };
    if (!SYNTHETIC.has(type)) {
      const lastBreak = token.lastIndexOf("\n");
      if (lastBreak === -1) column += token.length;
      else {
        for (const char of token) if (char === "\n") line++;
        column = token.length - lastBreak - 1;
      }
    }
    if (type === "newline") {
      firstOnLine = true;
      afterIndicator = false;
      // The header's own line break keeps the block scalar coming; one after its marker: it is empty.
      if (blockScalar === "marker") blockScalar = "none";
      continue;
    }
    if (type === "scalar" && blockScalar === "header") blockScalar = "marker";
    if (type === "scalar-source" && blockScalar === "marker") {
      // The next line starts right after the content's last line break.
      blockScalar = "none";
      firstOnLine = token.endsWith("\n");
      afterIndicator = false;
      continue;
    }
    if (type === "flow-error-end") flowDepth = 0;
    if (SYNTHETIC.has(type) || LAYOUT.has(type)) continue;
    if (type === "doc-start" || type === "doc-end") {
      blockColumns.length = 0;
      flowDepth = 0;
      continue;
    }
    if (type === "alias")
      return { ...at, message: "aliases (*name) are not allowed in a definition: write the value out" };
    if (type === "map-value-ind" && ++keys > limits.keys)
      return { ...at, message: `more than ${limits.keys.toLocaleString("en-US")} keys` };

    // Where a block node may start: the first node of a line, or right after `-`, `?` or `:`.
    if (flowDepth === 0 && (firstOnLine || afterIndicator)) {
      const nodeColumn = at.column - 1;
      if (firstOnLine) while ((blockColumns.at(-1) ?? -1) > nodeColumn) blockColumns.pop();
      if ((blockColumns.at(-1) ?? -1) < nodeColumn) blockColumns.push(nodeColumn);
    }
    firstOnLine = false;
    afterIndicator = BLOCK_INDICATORS.has(type);
    if (type === "block-scalar-header") blockScalar = "header";
    if (type === "flow-seq-start" || type === "flow-map-start") flowDepth++;
    else if ((type === "flow-seq-end" || type === "flow-map-end") && flowDepth > 0) flowDepth--;
    if (2 * blockColumns.length + flowDepth > limits.depth)
      return { ...at, message: `nested deeper than ${limits.depth} levels` };
  }
  return null;
}
