// The recipes every writer has: pipelines written in the definition format (YAML), the same way a
// writer writes their own. Each works with every provider and with the offline model.

export interface BuiltInRecipe {
  /** Stable id, used by the panel and in a run's input. */
  id: string;
  yaml: string;
}

const REVIEW_AND_REVISE = `version: 1
name: Review and revise
description: A writer improves the document, a critic reviews it; up to three rounds, until the critic approves.
agents:
  - id: writer
    instructions: >-
      Improve the document as the writer asked. When the critic's notes are given, revise
      the document to address them.
    tools: write
  - id: critic
    instructions: >-
      Review the document against the writer's request. Approve it only when the request is
      met; otherwise say what to change.
    tools: read
    output:
      type: object
      properties:
        approved: { type: boolean, description: true when the request is met }
        notes: { type: string, description: "what to change, or why it is good" }
      required: [approved, notes]
steps:
  - id: rounds
    loop:
      - agent: writer
        id: revise
        inputs: [review]
      - agent: critic
        id: review
    until: steps.review.approved
    maxIterations: 3
    onExhausted: continue
`;

const TRANSLATE_WITH_CHECK = `version: 1
name: Translate with a check
description: A translator translates the document, a checker compares it with the original; retranslated once if the check fails.
agents:
  - id: translator
    instructions: >-
      Translate the document into the language the writer asked for, block by block, keeping
      its structure. When the checker's notes are given, fix what they name.
    tools: write
  - id: checker
    instructions: >-
      Check the translation against the writer's request: every block translated, nothing
      added or left out, the meaning kept.
    tools: read
    output:
      type: object
      properties:
        faithful: { type: boolean }
        notes: { type: string }
      required: [faithful, notes]
steps:
  - agent: translator
    id: translate
  - agent: checker
    id: check
  - branch:
      - when: "!steps.check.faithful"
        steps:
          - agent: translator
            id: retranslate
            inputs: [check]
`;

const PARALLEL_REVIEW = `version: 1
name: Parallel review
description: Style, facts and structure critics read the document at once; one editor applies their notes.
agents:
  - id: style
    instructions: Review the document's style (clarity, tone, wording). List concrete changes.
    tools: read
    output:
      type: object
      properties:
        notes: { type: string }
      required: [notes]
  - id: facts
    instructions: Review the document's claims for accuracy and consistency. List concrete changes.
    tools: read
    output:
      type: object
      properties:
        notes: { type: string }
      required: [notes]
  - id: structure
    instructions: Review the document's structure (order, headings, paragraphs). List concrete changes.
    tools: read
    output:
      type: object
      properties:
        notes: { type: string }
      required: [notes]
  - id: editor
    instructions: Apply the reviewers' notes to the document, as far as they serve the writer's request.
    tools: write
steps:
  - id: reviews
    parallel:
      - agent: style
      - agent: facts
      - agent: structure
  - agent: editor
    inputs: [style, facts, structure]
`;

const REVIEW_WITH_COMMENTS = `version: 1
name: Review with comments
description: A reviewer reads the whole document and leaves comments on what to improve; the text stays as it is.
agents:
  - id: reviewer
    instructions: >-
      Read the whole document (readDocument, reading on to its end) and its open comment threads
      (listComments). Leave a comment (addComment) on each passage that is unclear, wrong, weak or
      inconsistent with the rest: quote the exact text, say what is wrong and what would be better.
      Do not repeat a point an open thread already makes. Never change the text.
    tools: [readDocument, listComments, addComment]
steps:
  - agent: reviewer
`;

export const BUILT_IN_RECIPES: readonly BuiltInRecipe[] = [
  { id: "review-and-revise", yaml: REVIEW_AND_REVISE },
  { id: "translate-with-check", yaml: TRANSLATE_WITH_CHECK },
  { id: "parallel-review", yaml: PARALLEL_REVIEW },
  { id: "review-with-comments", yaml: REVIEW_WITH_COMMENTS },
];
