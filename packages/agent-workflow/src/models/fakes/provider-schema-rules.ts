// Test helper: each provider's documented limits on a function tool's name and
// input schema, as checks that return what breaks them (empty: accepted).

type Schema = Record<string, unknown>;

/** Every subschema with its JSON path, the root first. */
function* walk(
  schema: unknown,
  path = "$",
  depth = 0,
): Generator<{ node: Schema; path: string; depth: number }> {
  if (typeof schema !== "object" || schema === null) return;
  const node = schema as Schema;
  yield { node, path, depth };
  const properties = node.properties as Record<string, unknown> | undefined;
  for (const [name, child] of Object.entries(properties ?? {}))
    yield* walk(child, `${path}.${name}`, depth + 1);
  if (node.items) yield* walk(node.items, `${path}[]`, depth);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    for (const [index, child] of ((node[key] as unknown[]) ?? []).entries()) {
      yield* walk(child, `${path}.${key}[${index}]`, depth);
    }
  }
  if (typeof node.additionalProperties === "object")
    yield* walk(node.additionalProperties, `${path}.*`, depth + 1);
}

function unknownKeywords(schema: unknown, allowed: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const { node, path } of walk(schema)) {
    for (const key of Object.keys(node)) if (!allowed.has(key)) problems.push(`${path}: keyword "${key}"`);
  }
  return problems;
}

function rootIsObject(schema: unknown): string[] {
  const root = schema as Schema;
  return root?.type === "object" ? [] : ['$: the root must be {"type": "object"}'];
}

/**
 * OpenAI function tools (https://platform.openai.com/docs/guides/function-calling and the
 * structured-outputs "Supported schemas" section). The agent sends `strict: false` (optional
 * fields stay optional, which strict mode forbids), so this checks the rest of strict mode's
 * rules, which it meets: an object root, `additionalProperties: false` on every object,
 * composition by `anyOf`/`oneOf` of objects only (no `allOf`, `not`, `if`/`then`/`else`,
 * `patternProperties`), at most 10 levels of nesting, 5000 properties and 1000 enum values.
 */
export function openAIProblems(name: string, schema: unknown): string[] {
  const problems = rootIsObject(schema);
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) problems.push(`name "${name}" must match ^[a-zA-Z0-9_-]{1,64}$`);
  let properties = 0;
  let enumValues = 0;
  for (const { node, path, depth } of walk(schema)) {
    if (node.type === "object" && node.additionalProperties !== false) {
      problems.push(`${path}: objects need "additionalProperties": false`);
    }
    for (const key of ["allOf", "not", "if", "then", "else", "patternProperties", "dependentRequired"]) {
      if (key in node) problems.push(`${path}: keyword "${key}" is not supported`);
    }
    if (depth > 10) problems.push(`${path}: nested deeper than 10 levels`);
    properties += Object.keys((node.properties as object) ?? {}).length;
    enumValues += ((node.enum as unknown[]) ?? []).length;
  }
  if (properties > 5000) problems.push(`${properties} properties (at most 5000)`);
  if (enumValues > 1000) problems.push(`${enumValues} enum values (at most 1000)`);
  return problems;
}

/** Anthropic tools (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use). */
export function anthropicProblems(name: string, schema: unknown): string[] {
  const problems = rootIsObject(schema);
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) problems.push(`name "${name}" must match ^[a-zA-Z0-9_-]{1,64}$`);
  return problems;
}

// Gemini's function declarations take `parametersJsonSchema`, a subset of JSON Schema
// (https://ai.google.dev/api/caching#FunctionDeclaration and the structured-output guide's
// "JSON Schema support" list), next to the fields of its OpenAPI `Schema`
// (https://ai.google.dev/api/caching#Schema). `const` is in neither: a literal must be an enum.
// `$schema` is the dialect marker the AI SDK's conversion adds at the root.
const GEMINI_KEYWORDS = new Set([
  "$schema",
  "$id",
  "$defs",
  "$ref",
  "$anchor",
  "type",
  "format",
  "title",
  "description",
  "enum",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "anyOf",
  "oneOf",
  "properties",
  "additionalProperties",
  "required",
  "propertyOrdering",
  "nullable",
  "minLength",
  "maxLength",
  "pattern",
  "default",
  "example",
  "minProperties",
  "maxProperties",
]);

/** Gemini function declarations. */
export function geminiProblems(name: string, schema: unknown): string[] {
  const problems = [...rootIsObject(schema), ...unknownKeywords(schema, GEMINI_KEYWORDS)];
  if (!/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/.test(name)) {
    problems.push(`name "${name}" must start with a letter or _ and use a-z, A-Z, 0-9, _ . : - (64 at most)`);
  }
  return problems;
}
