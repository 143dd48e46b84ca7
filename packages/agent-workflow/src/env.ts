import { z } from "zod";
import { modelPricesSchema } from "./models/model-price.ts";

// The one place this package reads process.env; validated on first use.

/** A variable an earlier version read: setting it fails at start, naming its successor. */
const renamed = (successor: string) => z.undefined({ error: `renamed: set ${successor} instead` }).optional();

/** `MODEL_PRICES`: JSON by model id, USD per million tokens (see models/prices.ts). */
const modelPricesVariable = z
  .string()
  .optional()
  .transform((text, context) => {
    if (!text) return {};
    try {
      const parsed = modelPricesSchema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
      context.addIssue({
        code: "custom",
        message: parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "),
      });
    } catch {
      context.addIssue({ code: "custom", message: "not JSON" });
    }
    return z.NEVER;
  });

const envSchema = z.object({
  COAUTHOR_DEFAULT_MODEL: z.string().optional(),
  OFFLINE_MODEL_WORD_DELAY_MS: z.coerce.number().int().min(0).max(5_000).default(20),
  // How long the offline model takes before answering at all (every call, the planner's too), as a
  // service takes to its first token: the bench measures the first words against it.
  OFFLINE_MODEL_FIRST_TOKEN_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  // Defaults sized for document work (see Limits in docs/how-it-works.md): a plan of at most 8 steps, each
  // of up to 25 model turns (LangGraph's recursion limit; the AI SDK's agent stops at 20), and at
  // most 100 tool calls per run — enough to page through and edit a 2,000-paragraph document.
  AGENT_MAX_PLAN_STEPS: z.coerce.number().int().min(1).max(50).default(8),
  AGENT_MAX_TURNS_PER_STEP: z.coerce.number().int().min(1).max(1_000).default(25),
  AGENT_MAX_TOOL_CALLS_PER_TURN: z.coerce.number().int().min(1).max(50).default(5),
  AGENT_MAX_TOOL_CALLS_PER_RUN: z.coerce.number().int().min(1).max(10_000).default(100),
  AGENT_MAX_STEPS: renamed("AGENT_MAX_TURNS_PER_STEP"),
  AGENT_MAX_TOOL_CALLS_PER_STEP: renamed("AGENT_MAX_TOOL_CALLS_PER_TURN"),
  AGENT_TOOL_DEADLINE_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
  // How long an announced tool call waits for a tab of the writer to take it before the server runs
  // it (no tab holds the run's lease: the writer closed it, or lost the connection and has this
  // long to come back); 0: never, tabs only. Longer than a run lease's life (6 s), so a live tab
  // always keeps its calls.
  AGENT_SERVER_TAKEOVER_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  // How many runs' calls the server executes at once on one instance (each binds a headless editor
  // to a copy of the document); the rest wait their turn.
  MAX_BACKGROUND_RUNS: z.coerce.number().int().min(1).max(1_000).default(4),
  // A model call's total bound: generous, since reasoning models think for minutes before their
  // first word; a stalled stream is caught sooner by the silence bound below.
  AGENT_MODEL_STEP_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(600_000),
  // Longest wait for the model's next chunk (a first token after thinking included).
  AGENT_MODEL_SILENCE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(120_000),
  MODEL_PRICES: modelPricesVariable,
  AGENT_MAX_REPLANS: z.coerce.number().int().min(0).max(20).default(2),
  AGENT_RUN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(600_000),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_MODEL: z.string().default("gpt-5-mini"),
  // The providers' own conventional names: a company proxy (or a test fake) in their place.
  OPENAI_BASE_URL: z.url().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  ANTHROPIC_MODEL: z.string().default("claude-sonnet-4-5"),
  ANTHROPIC_BASE_URL: z.url().optional(),
  GOOGLE_GENERATIVE_AI_API_KEY: z.string().optional(),
  GOOGLE_MODEL: z.string().default("gemini-2.5-flash"),
  GOOGLE_GENERATIVE_AI_BASE_URL: z.url().optional(),
  OPENAI_COMPATIBLE_BASE_URL: z.url().optional(),
  OPENAI_COMPATIBLE_API_KEY: z.string().optional(),
  OPENAI_COMPATIBLE_MODEL: z.string().default("llama3.2"),
  AI_GATEWAY_API_KEY: z.string().optional(),
  AI_GATEWAY_MODEL: z.string().default("openai/gpt-5-mini"),
});

export type AgentEnv = z.infer<typeof envSchema>;

let cached: AgentEnv | undefined;

/** The validated environment of the agent; throws naming the bad variable. */
export function agentEnv(): AgentEnv {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment for @coauthor/agent-workflow: ${issues.join("; ")}`);
  }
  cached = parsed.data;
  return cached;
}

/** Forgets the cached environment (tests change process.env between cases). */
export function resetAgentEnv(): void {
  cached = undefined;
}
