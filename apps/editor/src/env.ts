import { z } from "zod";

// The one place the app reads process.env (the agent package has its own: models and run limits).
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.string().url().optional(),
  // Several instances: the sync servers relay document updates and awareness through Redis.
  REDIS_URL: z
    .string()
    .url()
    .refine((value) => /^rediss?:$/.test(new URL(value).protocol), "must be a redis:// or rediss:// URL")
    .optional(),
  // Deployments sharing one Redis (staging beside production, a test database per suite): every
  // key and channel the app uses there starts with `<namespace>:`, so their rate-limit counters
  // and relayed messages stay apart. Unset: the names carry no namespace.
  REDIS_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, "REDIS_NAMESPACE: 1 to 64 letters, digits, '_', '.' or '-'")
    .optional(),
  COAUTHOR_DATA_DIR: z.string().optional(),
  // Signing keys; generated into <data>/secrets.json when unset (server/secrets.ts).
  SESSION_SECRET: z
    .string()
    .min(43, "SESSION_SECRET must be at least 256 bits (43+ base64url chars)")
    .optional(),
  HOOK_TOKEN_SECRET: z
    .string()
    .min(43, "HOOK_TOKEN_SECRET must be at least 256 bits (43+ base64url chars)")
    .optional(),
  SECURE_COOKIES: z.enum(["true", "false"]).optional(),
  COAUTHOR_BENCH: z.enum(["0", "1"]).optional(),
  RATE_LIMIT_RUNS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_CALLBACKS_PER_MINUTE: z.coerce.number().int().min(1).default(1_200),
  RATE_LIMIT_CHAT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  MAX_CONCURRENT_RUNS_PER_USER: z.coerce.number().int().min(1).default(3),
  MAX_CONCURRENT_RUNS_PER_DOCUMENT: z.coerce.number().int().min(1).default(2),
  // Silence on a run's SSE stream after which a heartbeat frame goes out.
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  // Accounts (Better Auth). The secret is SESSION_SECRET (above).
  BETTER_AUTH_URL: z.string().url().optional(),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  // Postgres world: where each instance's job runner delivers to its own engine routes.
  WORKFLOW_LOCAL_BASE_URL: z.string().url().optional(),
  // Which Workflow DevKit world keeps the runs, and where: deleting a document purges its runs
  // there too (src/server/workflow/world-purge.ts). Unset or "local": files in the data folder.
  WORKFLOW_TARGET_WORLD: z.enum(["local", "@workflow/world-postgres"]).optional(),
  WORKFLOW_LOCAL_DATA_DIR: z.string().min(1).optional(),
  WORKFLOW_POSTGRES_URL: z.string().url().optional(),
  // Postgres world: how long a run's turns step holds its owner lease without renewal, so how soon
  // another instance takes over the runs of one that died.
  AGENT_STEP_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(10_000),
  // Postgres world: how many queued workflow and step jobs one instance runs at once. A run's turns
  // step holds its job while it waits on the browser, so this bounds the runs an instance carries;
  // the world's own default (10) stalls the eleventh run until one of the first ten ends (admission
  // refuses a run once the slots of every live instance are taken: workflow/job-capacity.ts). Each slot
  // left idle asks the queue for a job every WORKFLOW_POSTGRES_POLL_INTERVAL_MS (graphile-worker 0.16
  // polls per slot), so the slots are also a constant load: slots × 1000 / interval queries a second
  // per instance.
  WORKFLOW_POSTGRES_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(100),
  // Postgres world: how often an idle job slot polls the queue (our patch of the world reads it; the
  // world's own 500 ms cost 2 × slots transactions a second per idle instance). A new job wakes a
  // slot at once (LISTEN/NOTIFY), as do the jobs a sweep takes from a dead instance; the poll finds
  // only jobs that come due later (a retry after its backoff, a recipe's delay) and notifications
  // lost to a dropped connection, up to this late.
  WORKFLOW_POSTGRES_POLL_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  // Postgres world: how long a step's frames wait before they are written to the run's stream (the
  // engine batches them; its default is 10 ms). A stream followed on another instance than the one
  // running the step gets its frames from there, so every millisecond here is one on its tool round
  // trips; a step's writer already joins the frames sent while a write is in flight.
  WORKFLOW_STREAM_FLUSH_MS: z.coerce.number().int().min(0).max(1_000).default(0),
  // How long run logs (the world's events and streams, stored tool results) are kept after a run
  // ends; the retention sweep removes older ones and expired rate-limit counters.
  RUN_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3_650).default(30),
  // Versions: every automatic one (around runs, before restores) is kept this many days, then the
  // newest of each day until VERSION_KEEP_DAILY_DAYS, then the newest of each week; named ones stay.
  VERSION_KEEP_ALL_DAYS: z.coerce.number().int().min(1).max(3_650).default(30),
  VERSION_KEEP_DAILY_DAYS: z.coerce.number().int().min(1).max(3_650).default(90),
  // Versions after a pause in editing: taken once nobody has edited a document for VERSION_PAUSE_MS,
  // at most one per VERSION_INTERVAL_MS of a document's editing (collab/edit-versions.ts).
  VERSION_PAUSE_MS: z.coerce.number().int().min(100).max(86_400_000).default(120_000),
  VERSION_INTERVAL_MS: z.coerce.number().int().min(0).max(604_800_000).default(600_000),
  // How often each instance sweeps (tests shorten it; the sweep is safe on several instances).
  RETENTION_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(86_400_000).default(3_600_000),
  // Whole-document work runs in worker threads (server/document-work): a new document's Markdown
  // gets this long to become a document, or it is refused (413, content-too-slow); an export, a
  // chat's or the agent's read of the document and the check of a stored state as it opens get
  // four times as long.
  DOCUMENT_WORK_BUDGET_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  // How many proxies in front of the app append to X-Forwarded-For; 0 trusts the socket's address only.
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  // Outgoing mail (verification and password-reset links). Unset: each link is written to the
  // server log as one `[mail] to=… subject=… link=…` line instead (src/server/mail.ts).
  SMTP_URL: z
    .string()
    .url()
    .refine((value) => /^smtps?:$/.test(new URL(value).protocol), "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).max(320).default("Coauthor <no-reply@localhost>"),
  // Observability: the metrics endpoint answers only loopback unless a bearer token is set (then
  // only that token, from anywhere); traces are exported only when a collector is named.
  METRICS_TOKEN: z.string().min(32, "at least 32 characters").optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  GITHUB_CLIENT_ID: z.string().min(1).optional(),
  GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
});

// An OAuth provider needs both halves; one without the other is a mistake worth failing on.
const oauthPairs = envSchema.superRefine((value, ctx) => {
  for (const [id, secret] of [
    ["GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET"],
    ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
  ] as const) {
    if (Boolean(value[id]) !== Boolean(value[secret])) {
      ctx.addIssue({
        code: "custom",
        path: [value[id] ? secret : id],
        message: `set together with ${value[id] ? id : secret}`,
      });
    }
  }
});

const parsed = oauthPairs.safeParse(process.env);
if (!parsed.success) {
  throw new Error(
    `Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
  );
}

/** The app's validated environment. */
export const env = parsed.data;
