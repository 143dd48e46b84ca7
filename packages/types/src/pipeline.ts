import { z } from "zod";
import { modelErrorCodeSchema } from "./model-errors.ts";

// The pipeline definition format, version 1: agents (each an isolated context with its own
// instructions, tools and optional structured output) and steps that run them — in sequence, in
// parallel, on a condition, in a bounded loop, with retries. Written as YAML or JSON; the same
// schema validates both and is exported as JSON Schema for editors (pipeline.schema.json).
// Cross-references (agent ids, step ids, fields read by conditions) are checked after this
// schema, with positions, by the agent package's pipeline validator.

/** An id of an agent or a step: short, and usable as a name inside a condition. */
export const pipelineIdSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, "an id: a lowercase letter, then letters, digits or _ (at most 40)");

/** The JSON-Schema subset an agent's structured output may use. */
export type OutputField =
  | { type: "string"; description?: string; enum?: string[] }
  | { type: "number" | "integer" | "boolean"; description?: string }
  | { type: "array"; items: OutputField; description?: string }
  | { type: "object"; properties: Record<string, OutputField>; required?: string[]; description?: string };

const description = z.string().max(500).optional();
export const outputFieldSchema: z.ZodType<OutputField> = z.lazy(() =>
  z.union([
    z.strictObject({
      type: z.literal("string"),
      description,
      enum: z.array(z.string().max(200)).max(50).optional(),
    }),
    z.strictObject({ type: z.enum(["number", "integer", "boolean"]), description }),
    z.strictObject({ type: z.literal("array"), items: outputFieldSchema, description }),
    z.strictObject({
      type: z.literal("object"),
      properties: z.record(pipelineIdSchema, outputFieldSchema),
      required: z.array(pipelineIdSchema).optional(),
      description,
    }),
  ]),
);

/** An agent's structured output: an object whose fields later conditions and agents may read. */
export const agentOutputSchema = z.strictObject({
  type: z.literal("object"),
  properties: z.record(pipelineIdSchema, outputFieldSchema),
  required: z.array(pipelineIdSchema).optional(),
  description,
});
export type AgentOutput = z.infer<typeof agentOutputSchema>;

export const pipelineAgentSchema = z.strictObject({
  id: pipelineIdSchema,
  instructions: z.string().trim().min(1, "instructions are empty").max(10_000),
  /** A model id (as in the panel's picker); default: the run's model. */
  model: z.string().max(200).optional(),
  /** `read`: the reading tools; `write`: every tool; or the tools by name. */
  tools: z.union([z.enum(["read", "write", "none"]), z.array(z.string().max(60)).max(20)]).default("read"),
  output: agentOutputSchema.optional(),
  /**
   * `isolated` (default): the agent sees its instructions, the outputs it asks for and the
   * writer's prompt, never another agent's conversation. `conversation`: also the writer's
   * earlier conversation in the panel.
   */
  context: z.enum(["isolated", "conversation"]).default("isolated"),
  /**
   * Plans its work first (plan → execute → reflect), as the default agent does: the model decides
   * whether the task needs a plan, then works step by step and reflects after each.
   */
  plan: z.boolean().default(false),
});
export type PipelineAgent = z.infer<typeof pipelineAgentSchema>;

/** Error codes a retry may be limited to (`on`); absent: any failure of the step. */
export const PIPELINE_ERROR_CODES = [
  ...modelErrorCodeSchema.options,
  "tool-timeout",
  "output-invalid",
  "step-failed",
] as const;

export const retrySchema = z.strictObject({
  maxAttempts: z.int().min(2).max(5),
  backoff: z.enum(["fixed", "exponential"]).default("exponential"),
  /** The first wait (ms); exponential doubles it per attempt. */
  delayMs: z.int().min(0).max(60_000).default(1_000),
  on: z.array(z.enum(PIPELINE_ERROR_CODES)).min(1).optional(),
});
export type Retry = z.infer<typeof retrySchema>;

/** A condition: a CEL expression over `steps.<id>.<field>` (earlier steps' validated outputs). */
export const conditionSchema = z.string().trim().min(1, "the condition is empty").max(2_000);

const stepBase = { id: pipelineIdSchema.optional(), retry: retrySchema.optional() };

export type PipelineStep =
  | { id?: string; retry?: Retry; agent: string; inputs?: string[] }
  | { id?: string; retry?: Retry; sequence: PipelineStep[] }
  | { id?: string; retry?: Retry; parallel: PipelineStep[]; maxConcurrency?: number }
  | { id?: string; retry?: Retry; branch: { when: string; steps: PipelineStep[] }[]; else?: PipelineStep[] }
  | {
      id?: string;
      retry?: Retry;
      loop: PipelineStep[];
      until: string;
      maxIterations: number;
      /** When the last iteration ends with `until` still false: go on (`continue`) or fail. */
      onExhausted?: "continue" | "fail";
    };

/** The key that names a step's kind (one per step). */
export const STEP_KINDS = ["agent", "sequence", "parallel", "branch", "loop"] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/**
 * The schema of each step kind, with `child` for the steps it holds: the deep schema validates a
 * whole tree; the validator checks one step at a time (children as `unknown`) to report each
 * problem at its own place.
 */
export function stepKindSchemas<C extends z.ZodType>(child: C) {
  const list = (min: number, max: number) => z.array(child).min(min).max(max);
  return {
    agent: z.strictObject({
      ...stepBase,
      agent: pipelineIdSchema,
      /** Steps whose outputs this agent receives (by step id). */
      inputs: z.array(pipelineIdSchema).max(20).optional(),
    }),
    sequence: z.strictObject({ ...stepBase, sequence: list(1, 50) }),
    parallel: z.strictObject({
      ...stepBase,
      parallel: list(2, 10),
      maxConcurrency: z.int().min(1).max(10).optional(),
    }),
    branch: z.strictObject({
      ...stepBase,
      branch: z
        .array(z.strictObject({ when: conditionSchema, steps: list(1, 50) }))
        .min(1)
        .max(10),
      else: list(1, 50).optional(),
    }),
    loop: z.strictObject({
      ...stepBase,
      loop: list(1, 50),
      until: conditionSchema,
      maxIterations: z
        .int({
          error: (issue) =>
            issue.input === undefined ? "a loop needs a bound: maxIterations (1 to 10)" : undefined,
        })
        .min(1)
        .max(10, "maxIterations: at most 10"),
      onExhausted: z.enum(["continue", "fail"]).default("continue"),
    }),
  } satisfies Record<StepKind, z.ZodType>;
}

const deepKinds = stepKindSchemas(z.lazy((): z.ZodType<PipelineStep> => pipelineStepSchema));
export const pipelineStepSchema: z.ZodType<PipelineStep> = z.lazy(() =>
  z.union([deepKinds.agent, deepKinds.sequence, deepKinds.parallel, deepKinds.branch, deepKinds.loop]),
);
const steps = (): z.ZodType<PipelineStep[]> => z.array(pipelineStepSchema).min(1).max(50);

/** Limits of the whole pipeline, checked before every model call. */
export const pipelineBudgetSchema = z.strictObject({
  modelTurns: z.int().min(1).max(1_000).default(100),
  toolCalls: z.int().min(1).max(10_000).default(200),
  tokens: z.int().min(1_000).max(10_000_000).default(1_000_000),
  wallTimeMs: z.int().min(1_000).max(3_600_000).default(900_000),
});
export type PipelineBudget = z.infer<typeof pipelineBudgetSchema>;

export const pipelineDefinitionSchema = z.strictObject({
  version: z.literal(1, "version: this is format version 1 (write `version: 1`)"),
  name: z.string().trim().min(1).max(100),
  description: z.string().max(1_000).optional(),
  agents: z.array(pipelineAgentSchema).min(1).max(20),
  steps: steps(),
  budget: pipelineBudgetSchema.default(pipelineBudgetSchema.parse({})),
});
export type PipelineDefinition = z.infer<typeof pipelineDefinitionSchema>;

/** The JSON Schema of the definition format, for editors (`# yaml-language-server: $schema=…`). */
export function pipelineJsonSchema() {
  return z.toJSONSchema(pipelineDefinitionSchema, { io: "input", unrepresentable: "any" });
}

/** A problem in a definition, where it is (1-based line and column) and what to change. */
export const pipelineIssueSchema = z.object({
  line: z.int().min(1),
  column: z.int().min(1),
  /** Where in the definition, e.g. `steps[0].loop[1].agent`. */
  path: z.string(),
  message: z.string(),
});
export type PipelineIssue = z.infer<typeof pipelineIssueSchema>;

/** The longest definition a writer may save or run. */
export const MAX_DEFINITION_CHARS = 100_000;

/**
 * The error code of a definition refused before it is parsed: nested too deep, an alias, too many
 * keys (the limits are the pipeline package's definition-limits.ts).
 */
export const DEFINITION_TOO_COMPLEX = "definition-too-complex";

/** A recipe the panel can run: built in, or written by a writer (personal or shared on a document). */
export const recipeInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  /** The definition as written (YAML or JSON). */
  definition: z.string(),
  builtIn: z.boolean(),
  /** Shared with everyone who can open the document (false: its author's own). */
  shared: z.boolean(),
  /** Whether the caller may change or delete it (its author). */
  editable: z.boolean(),
});
export type RecipeInfo = z.infer<typeof recipeInfoSchema>;

/** Input of `recipes.save`: a new recipe (no id) or a change to one of the caller's. */
export const recipeSaveInputSchema = z.object({
  documentId: z.string().min(1).max(100),
  id: z.string().min(1).max(100).optional(),
  definition: z.string().min(1, "the definition is empty").max(MAX_DEFINITION_CHARS),
  shared: z.boolean().default(false),
});
export type RecipeSaveInput = z.infer<typeof recipeSaveInputSchema>;
