import { Environment, parse } from "@marcbachmann/cel-js";
import { conditionEnvironment } from "./condition-environment.ts";

// Checks a pipeline's conditions when its definition is validated (the server, never the workflow:
// the workflow evaluates them with `condition-evaluation.ts`, which loads CEL only when needed).

const environment = conditionEnvironment(Environment);

/** A read of an output inside a condition: `steps.<step>.<field>` (`field` absent: the whole output). */
export interface OutputRead {
  step: string;
  field?: string;
  /** Where in the expression (character offsets). */
  start: number;
}

interface AstNode {
  op: string;
  args: unknown;
  start: number;
}

const isNode = (value: unknown): value is AstNode =>
  typeof value === "object" && value !== null && "op" in value && typeof value.op === "string";

/** The member chain of a `.` node: `steps.a.b` → ["steps", "a", "b"] (null when not from an identifier). */
function chainOf(node: AstNode): string[] | null {
  const names: string[] = [];
  let current: unknown = node;
  while (isNode(current) && current.op === ".") {
    const [object, name] = current.args as [unknown, unknown];
    if (typeof name !== "string") return null;
    names.unshift(name);
    current = object;
  }
  if (isNode(current) && current.op === "id" && typeof current.args === "string") {
    return [current.args, ...names];
  }
  return null;
}

/** Every `steps.…` read in an AST; a `steps` used any other way is an error. */
function collectReads(node: unknown, reads: OutputRead[], errors: string[]): void {
  if (Array.isArray(node)) {
    for (const item of node) collectReads(item, reads, errors);
    return;
  }
  if (!isNode(node)) return;
  if (node.op === ".") {
    const chain = chainOf(node);
    if (chain?.[0] === "steps" && chain[1] !== undefined) {
      reads.push({ step: chain[1], field: chain[2], start: node.start });
      return;
    }
  }
  if (node.op === "id" && node.args === "steps") {
    errors.push("read an output as steps.<step id>.<field>");
    return;
  }
  collectReads(node.args, reads, errors);
}

/** A condition's outputs read, or why it is not a valid condition. */
export function analyzeCondition(expression: string): { reads: OutputRead[] } | { error: string } {
  let ast: unknown;
  try {
    ast = parse(expression).ast;
  } catch (error) {
    return { error: `not a valid CEL expression: ${firstLine(error)}` };
  }
  const checked = environment.check(expression);
  if (!checked.valid) return { error: firstLine(checked.error) };
  const reads: OutputRead[] = [];
  const errors: string[] = [];
  collectReads(ast, reads, errors);
  if (errors[0]) return { error: errors[0] };
  return { reads };
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
