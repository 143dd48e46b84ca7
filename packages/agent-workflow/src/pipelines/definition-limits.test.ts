import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isMap, isPair, isSeq, parseDocument } from "yaml";
import { parsePipeline } from "./definition.ts";
import { definitionLimitProblem, MAX_DEFINITION_DEPTH } from "./definition-limits.ts";
import { BUILT_IN_RECIPES } from "./recipes.ts";

// A recipe definition is scanned before the YAML parser sees it (definition-limits.ts). These
// tests check the refusals and their words, and, on random YAML of every style, that the scan
// never counts less nesting than the parser builds.

const UNLIMITED = { depth: Number.POSITIVE_INFINITY, keys: Number.POSITIVE_INFINITY };

/** Collections nested in the parsed document (0 for a scalar), or null when it is not valid YAML. */
function parsedDepth(text: string): number | null {
  const document = parseDocument(text, { prettyErrors: false });
  if (document.errors.length > 0) return null;
  let deepest = 0;
  const pending: { node: unknown; depth: number }[] = [{ node: document.contents, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node, depth } = next;
    if (isMap(node) || isSeq(node)) {
      deepest = Math.max(deepest, depth + 1);
      for (const item of node.items) {
        if (isPair(item)) {
          pending.push({ node: item.key, depth: depth + 1 }, { node: item.value, depth: depth + 1 });
        } else pending.push({ node: item, depth: depth + 1 });
      }
    }
  }
  return deepest;
}

/** The first problem of `text` as "line:column message". */
function refusal(text: string): string | null {
  const problem = definitionLimitProblem(text);
  return problem && `${problem.line}:${problem.column} ${problem.message}`;
}

describe("recipe definitions past the limits", () => {
  it("refuses 30,000 nested sequences before parsing, without overflowing the stack", () => {
    const flow = `${"[".repeat(30_000)}${"]".repeat(30_000)}`;
    expect(refusal(flow)).toBe("1:63 nested deeper than 64 levels");
    expect(parsePipeline(flow)).toEqual({
      ok: false,
      issues: [{ line: 1, column: 63, path: "", message: "nested deeper than 64 levels" }],
    });
    expect(refusal(`${"- ".repeat(30_000)}x`)).toBe("1:65 nested deeper than 64 levels");
    const staircase = Array.from({ length: 40 }, (_, level) => `${"  ".repeat(level)}k:`).join("\n");
    expect(refusal(staircase)).toBe("33:65 nested deeper than 64 levels");
  });

  it("refuses aliases, and so the billion laughs", () => {
    const laughs = [
      "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]",
      ...Array.from({ length: 9 }, (_, i) => {
        const name = String.fromCharCode(98 + i);
        const previous = `*${String.fromCharCode(97 + i)}`;
        return `${name}: &${name} [${Array(9).fill(previous).join(", ")}]`;
      }),
    ].join("\n");
    expect(refusal(laughs)).toBe("2:8 aliases (*name) are not allowed in a definition: write the value out");
  });

  it("refuses more than 2,000 keys (the parser compares every pair of a mapping's keys)", () => {
    const keys = Array.from({ length: 2_001 }, (_, n) => `k${n}: 1`).join("\n");
    expect(refusal(keys)).toBe("2001:6 more than 2,000 keys");
  });

  it("reads scalars as text: brackets, dashes and stars in quotes and block scalars are no structure", () => {
    const text = [
      "instructions: |",
      `  ${"[".repeat(200)} ${"- ".repeat(100)} *not-an-alias`,
      "  - - - - - - - -",
      `quoted: "${"{".repeat(200)} *x"`,
      `single: '${"[".repeat(200)}'`,
      "after: 1",
    ].join("\n");
    expect(refusal(text)).toBeNull();
  });

  it("accepts every built-in recipe within half the limits", () => {
    // They nest 6 to 8 levels, which the scan counts as at most 17.
    for (const recipe of BUILT_IN_RECIPES)
      expect(definitionLimitProblem(recipe.yaml, { depth: 32, keys: 1_000 }), recipe.id).toBeNull();
  });
});

// Random YAML: trees of mappings, sequences and scalars, each collection block or flow style.

type YamlNode =
  | { kind: "scalar"; text: string }
  | { kind: "seq" | "map"; flow: boolean; compact: boolean; children: YamlNode[] };

const SCALARS = ["x", "plain words", "'q [ { - *'", '"d [ { *x #"', "[1, 2]", "{a: 1}", "|block"];

const trees = fc.letrec<{ node: YamlNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: "large", maxDepth: 12 },
    fc.constantFrom(...SCALARS).map((text): YamlNode => ({ kind: "scalar", text })),
    {
      weight: 3,
      arbitrary: fc
        .record({
          kind: fc.constantFrom<"seq" | "map">("seq", "map"),
          // Mostly block style: flow collections hold only flow ones, block ones nest either.
          flow: fc.constantFrom(false, false, false, true),
          compact: fc.boolean(),
          children: fc.array(tie("node"), { minLength: 1, maxLength: 3 }),
        })
        .map((node): YamlNode => node),
    },
  ),
}));

/** A scalar as YAML: a block scalar (`|block`) only where a block node may stand. */
function scalar(text: string, indent: string, inFlow: boolean): string {
  if (text !== "|block") return text;
  return inFlow ? "'block'" : `|\n${indent}  [[ {{ - - *a\n${indent}  # not a comment`;
}

/** `node` as YAML text whose lines start at `indent`; all flow inside a flow collection. */
function render(node: YamlNode, indent: string, inFlow: boolean): string {
  if (node.kind === "scalar") return scalar(node.text, indent, inFlow);
  if (inFlow || node.flow) {
    const items = node.children.map((child, i) =>
      node.kind === "seq" ? render(child, indent, true) : `k${i}: ${render(child, indent, true)}`,
    );
    return node.kind === "seq" ? `[${items.join(", ")}]` : `{${items.join(", ")}}`;
  }
  const inner = `${indent}  `;
  return node.children
    .map((child, i) => {
      const key = `${indent}${node.kind === "seq" ? "-" : `k${i}:`}`;
      if (child.kind === "scalar" || child.flow) return `${key} ${render(child, inner, false)}`;
      // A sequence may sit at its mapping key's column; a compact item starts on the dash's line.
      if (node.kind === "map" && child.kind === "seq" && node.compact)
        return `${key}\n${render(child, indent, false)}`;
      if (node.kind === "seq" && node.compact) return `${key} ${render(child, inner, false).trimStart()}`;
      return `${key}\n${render(child, inner, false)}`;
    })
    .join("\n");
}

describe("the definition pre-scan", () => {
  it("never counts less nesting than the YAML parser builds", () => {
    fc.assert(
      fc.property(trees.node, (tree) => {
        const text = render(tree, "", false);
        const depth = parsedDepth(text);
        if (depth === null || depth === 0) return;
        const problem = definitionLimitProblem(text, { ...UNLIMITED, depth: depth - 1 });
        expect(problem?.message, text).toMatch(/nested deeper/);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses a chain of any style past the limit, and parses what it lets through", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            kind: fc.constantFrom<"seq" | "map">("seq", "map"),
            flow: fc.boolean(),
            compact: fc.boolean(),
          }),
          { minLength: 1, maxLength: 90 },
        ),
        (chain) => {
          const tree = chain.reduceRight<YamlNode>((child, link) => ({ ...link, children: [child] }), {
            kind: "scalar",
            text: "x",
          });
          const text = render(tree, "", false);
          const depth = parsedDepth(text);
          const problem = definitionLimitProblem(text);
          if (depth !== null && depth > MAX_DEFINITION_DEPTH) expect(problem, text).not.toBeNull();
          // Let through, the whole check runs without throwing (its answer may be schema issues).
          if (problem === null) expect(() => parsePipeline(text)).not.toThrow();
        },
      ),
      { numRuns: 300 },
    );
  });
});
