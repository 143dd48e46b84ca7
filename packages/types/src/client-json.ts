import { z } from "zod";

// One rule for every JSON value a client sends (route bodies, tRPC inputs), checked before any
// schema or recursive work: bounded depth and size, and strings that storage and the editor can
// hold. PostgreSQL cannot store NUL in text, and a lone UTF-16 surrogate is not valid Unicode
// (it breaks JSON serialisation in some stores and becomes U+FFFD in others).

/** Deepest nesting of arrays and objects accepted. */
export const MAX_JSON_DEPTH = 64;
/** Most values (objects, arrays, strings, numbers…) in one JSON document. */
export const MAX_JSON_NODES = 200_000;

/** What is wrong with a client's JSON value, with where (`body.result.blocks[3]`), or null when it is fine. */
export type ClientJsonProblem = { path: string; message: string };

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this finds
const NUL = /\u0000/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function stringProblem(value: string): string | null {
  if (NUL.test(value)) return "contains a NUL character";
  if (LONE_SURROGATE.test(value)) return "contains a lone surrogate (not valid Unicode)";
  return null;
}

/** Checks `value` (already parsed) iteratively, so even a hostile depth costs no stack. */
export function clientJsonProblem(value: unknown, root = "body"): ClientJsonProblem | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  let nodes = 0;
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === undefined) break;
    nodes++;
    if (nodes > MAX_JSON_NODES) return { path: root, message: `has more than ${MAX_JSON_NODES} values` };
    const { value: current, path, depth } = item;
    if (typeof current === "string") {
      const problem = stringProblem(current);
      if (problem) return { path, message: problem };
      continue;
    }
    if (typeof current !== "object" || current === null) continue;
    if (depth >= MAX_JSON_DEPTH) return { path, message: `is nested deeper than ${MAX_JSON_DEPTH} levels` };
    if (Array.isArray(current)) {
      for (const [index, entry] of current.entries()) {
        stack.push({ value: entry, path: `${path}[${index}]`, depth: depth + 1 });
      }
    } else {
      for (const [key, entry] of Object.entries(current)) {
        const keyProblem = stringProblem(key);
        if (keyProblem) return { path, message: `has a key that ${keyProblem}` };
        stack.push({ value: entry, path: `${path}.${key}`, depth: depth + 1 });
      }
    }
  }
  return null;
}

/**
 * Parses JSON text from a client without the recursion a hostile depth would exhaust: the nesting
 * is measured on the text first (brackets outside strings), then parsed and checked.
 */
export function parseClientJson(
  text: string,
  root = "body",
): { ok: true; value: unknown } | { ok: false; problem: ClientJsonProblem } {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "[" || char === "{") {
      depth++;
      if (depth > MAX_JSON_DEPTH)
        return {
          ok: false,
          problem: { path: root, message: `is nested deeper than ${MAX_JSON_DEPTH} levels` },
        };
    } else if (char === "]" || char === "}") depth--;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: { path: root, message: "is not valid JSON" } };
  }
  const problem = clientJsonProblem(value, root);
  return problem ? { ok: false, problem } : { ok: true, value };
}

/**
 * A string from a client (a query or path parameter, outside any JSON body), held to the same
 * rule: at most `max` characters, no NUL, no lone surrogate.
 */
export function boundaryString(max: number) {
  return z
    .string()
    .max(max)
    .superRefine((value, ctx) => {
      const problem = stringProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });
}
