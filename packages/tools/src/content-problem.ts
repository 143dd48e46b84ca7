import { INVALID_CONTENT } from "@coauthor/types";

// What a door says when content breaks the content rule (@coauthor/types content-rule.ts): what is
// wrong and where, so a writer or the model can find it. Every Markdown reader refuses with this
// error, and the callers turn it into their own answer (a 400, a tool failure, a plain-text paste).

/** What breaks the rule ("nesting deeper than 64 levels") and the source line it starts at (1-based). */
export interface ContentProblem {
  what: string;
  line: number;
}

/** The problem as one sentence: "nesting deeper than 64 levels at line 12". */
export function describeContentProblem(problem: ContentProblem): string {
  return `${problem.what} at line ${problem.line}`;
}

/** Content that breaks the content rule; nothing was created from it. */
export class InvalidContentError extends Error {
  /** The rule's error code, the same at every door. */
  readonly code = INVALID_CONTENT;
  readonly problem: ContentProblem;

  constructor(problem: ContentProblem) {
    super(describeContentProblem(problem));
    this.name = "InvalidContentError";
    this.problem = problem;
  }
}

/** Throws the problem as an InvalidContentError; returns when there is none. */
export function refuseContent(problem: ContentProblem | null): void {
  if (problem !== null) throw new InvalidContentError(problem);
}
