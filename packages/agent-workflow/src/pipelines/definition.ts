import {
  MAX_DEFINITION_CHARS,
  type PipelineDefinition,
  type PipelineIssue,
  pipelineDefinitionSchema,
  STEP_KINDS,
  type StepKind,
  stepKindSchemas,
} from "@coauthor/types";
import { isMap, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { z } from "zod";
import { definitionLimitProblem } from "./definition-limits.ts";
import { checkReferences, type DefinitionPath, type DefinitionProblem } from "./references.ts";

// Reads a pipeline definition (YAML, or JSON — a YAML document too) and checks it before anything
// runs: the schema, step by step, then every cross-reference. Each problem is reported at its
// line and column, saying what to change.

const shallowKinds = stepKindSchemas(z.unknown());
const topLevelSchema = pipelineDefinitionSchema.extend({ steps: z.array(z.unknown()).min(1).max(50) });

/** The children of a step, by where they sit in it (a loop's body, a branch case's steps…). */
export function childLists(
  step: Record<string, unknown>,
  kind: StepKind,
): { path: DefinitionPath; steps: unknown[] }[] {
  const list = (value: unknown) => (Array.isArray(value) ? value : []);
  switch (kind) {
    case "agent":
      return [];
    case "sequence":
    case "parallel":
    case "loop":
      return [{ path: [kind], steps: list(step[kind]) }];
    case "branch": {
      const cases = list(step.branch).map((entry, index) => ({
        path: ["branch", index, "steps"],
        steps: list(typeof entry === "object" && entry !== null && "steps" in entry ? entry.steps : []),
      }));
      return step.else === undefined ? cases : [...cases, { path: ["else"], steps: list(step.else) }];
    }
  }
}

/** The kind of a step: the one kind key it has, or a problem saying what it needs. */
export function kindOf(step: unknown): StepKind | string {
  if (typeof step !== "object" || step === null || Array.isArray(step)) {
    return `a step is a mapping with one of: ${STEP_KINDS.join(", ")}`;
  }
  const kinds = STEP_KINDS.filter((kind) => kind in step);
  if (kinds.length === 1 && kinds[0]) return kinds[0];
  if (kinds.length === 0) return `a step needs one of: ${STEP_KINDS.join(", ")}`;
  return `a step is one kind only, not ${kinds.join(" and ")}: split it into steps`;
}

/** Schema problems of every step of a tree, each at its own place. */
function checkSteps(steps: unknown[], path: DefinitionPath, problems: DefinitionProblem[]): void {
  steps.forEach((step, index) => {
    const at = [...path, index];
    const kind = kindOf(step);
    if (!(STEP_KINDS as readonly string[]).includes(kind)) {
      problems.push({ path: at, message: kind });
      return;
    }
    const stepKind = kind as StepKind;
    const parsed = shallowKinds[stepKind].safeParse(step);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        problems.push({ path: [...at, ...issue.path.map(pathKey)], message: issue.message });
      }
      return;
    }
    for (const child of childLists(step as Record<string, unknown>, stepKind)) {
      checkSteps(child.steps, [...at, ...child.path], problems);
    }
  });
}

const pathKey = (key: PropertyKey): string | number => (typeof key === "number" ? key : String(key));

/** The problems of a parsed definition (schema, then references), at their paths. */
export function definitionProblems(value: unknown): DefinitionProblem[] {
  const top = topLevelSchema.safeParse(value);
  if (!top.success) {
    return top.error.issues.map((issue) => ({ path: issue.path.map(pathKey), message: issue.message }));
  }
  const problems: DefinitionProblem[] = [];
  checkSteps(top.data.steps, ["steps"], problems);
  if (problems.length > 0) return problems;
  return checkReferences(pipelineDefinitionSchema.parse(value));
}

/** Line and column (1-based) of the node at `path`, or of the deepest ancestor that exists. */
function positionOf(
  document: ReturnType<typeof parseDocument>,
  lines: LineCounter,
  path: DefinitionPath,
): { line: number; column: number } {
  for (let depth = path.length; depth >= 0; depth--) {
    const node: unknown = depth === 0 ? document.contents : document.getIn(path.slice(0, depth), true);
    const range = (node as Node | undefined)?.range;
    if (range) {
      const { line, col } = lines.linePos(range[0]);
      return { line, column: col };
    }
  }
  return { line: 1, column: 1 };
}

const describePath = (path: DefinitionPath) =>
  path.reduce<string>(
    (text, key) => (typeof key === "number" ? `${text}[${key}]` : text ? `${text}.${key}` : key),
    "",
  );

export type ParsedPipeline =
  | { ok: true; definition: PipelineDefinition }
  | { ok: false; issues: PipelineIssue[] };

/** Parses and checks a pipeline definition written as YAML or JSON. */
export function parsePipeline(text: string): ParsedPipeline {
  if (text.length > MAX_DEFINITION_CHARS) {
    return {
      ok: false,
      issues: [
        {
          line: 1,
          column: 1,
          path: "",
          message: `the definition is longer than ${MAX_DEFINITION_CHARS} characters`,
        },
      ],
    };
  }
  // Before the parser, which recurses per level of nesting: see definition-limits.ts.
  const tooComplex = definitionLimitProblem(text);
  if (tooComplex !== null) {
    const { line, column, message } = tooComplex;
    return { ok: false, issues: [{ line, column, path: "", message }] };
  }
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const syntax = [...document.errors, ...document.warnings].map((error): PipelineIssue => {
    const { line, col } = lines.linePos(error.pos[0]);
    return { line, column: col, path: "", message: error.message.split("\n")[0] ?? error.message };
  });
  if (syntax.length > 0) return { ok: false, issues: syntax };
  if (!isMap(document.contents) && !isSeq(document.contents) && document.contents !== null) {
    return {
      ok: false,
      issues: [
        { line: 1, column: 1, path: "", message: "a definition is a mapping (version, name, agents, steps)" },
      ],
    };
  }
  let value: unknown;
  try {
    // Aliases are refused outright: a definition is small, and aliases are how YAML bombs expand.
    value = document.toJS({ maxAliasCount: 0 });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, issues: [{ line: 1, column: 1, path: "", message }] };
  }
  const problems = definitionProblems(value);
  if (problems.length > 0) {
    return {
      ok: false,
      issues: problems.map(({ path, message }) => ({
        ...positionOf(document, lines, path),
        path: describePath(path),
        message,
      })),
    };
  }
  return { ok: true, definition: pipelineDefinitionSchema.parse(value) };
}
