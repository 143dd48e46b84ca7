import type { DirectRoutes } from "@/server/http/direct-routes";

/**
 * Runs once per server start. With the Postgres world its job queue must be
 * started here. With the local world (its queue lives in memory) the runs a
 * previous process left running are recovered once this server answers HTTP.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  try {
    await startServer();
  } catch (error) {
    // Next logs a failed register() and goes on serving, every request then failing: a server that
    // cannot start (an invalid variable, an unreachable database) exits instead, with the reason,
    // before it listens, so an operator's health check and process manager see it.
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(`Coauthor cannot start: ${reason}\n`);
    if (error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  }
}

/** Everything the server needs before it answers: configuration, the engine, the sync server. */
async function startServer() {
  // Routes server.mjs answers itself, past Next's router (src/server/http/direct-routes.ts).
  const directRoutes: DirectRoutes = {};
  // Configuration is validated now, so a bad variable stops the server at start with its name.
  const { env } = await import("@/env");
  // Traces only with a collector to send them to (see docs/observability.md).
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { startTracing } = await import("@/server/observability/tracing");
    startTracing();
  }
  const { assertModelConfig, configureAgent } = await import("@coauthor/agent-workflow/server");
  assertModelConfig();
  // The agent package reads no secret, file or database of its own; the app hands it: the key that
  // signs hook tokens (the callback route verifies with the same), its database for tool results
  // and the turns step's progress, the sync server's live copy of a document, which a pipeline's
  // parallel branches read, and the comment and version tools, which the server runs itself.
  const { signingKeys } = await import("@/server/secrets");
  const { databaseAgentStore } = await import("@/server/agent/agent-store");
  const { readDocumentMarkdown } = await import("@/server/collab/document-content");
  const { runServerTool } = await import("@/server/agent/server-tools");
  const { offerCallToServer } = await import("@/server/agent/server-executor");
  configureAgent({
    hookTokenKey: signingKeys().hookToken,
    store: databaseAgentStore,
    documentReader: async (documentId) => (await readDocumentMarkdown(documentId)) ?? "",
    serverTools: { runServerTool, offerToServer: offerCallToServer },
  });
  // Several instances share PostgreSQL: a result or a Stop recorded on one reaches a step waiting
  // on another through LISTEN/NOTIFY (PGlite is one process: signals stay in it).
  if (env.DATABASE_URL) {
    const { startPostgresRunSignals } = await import("@/server/agent/run-signals-postgres");
    await startPostgresRunSignals(env.DATABASE_URL);
  }
  // withWorkflow() (next.config) names the local world "local" when none is configured.
  const target = process.env.WORKFLOW_TARGET_WORLD;
  const localWorld = !target || target === "local";
  const { getWorld, setWorld } = await import("workflow/runtime");
  // The engine's generated handlers, loaded once the world is settled: both worlds hand them their
  // deliveries without Next.
  const engineHandlers = () =>
    Promise.all([
      import("@/app/.well-known/workflow/v1/flow/route.js"),
      import("@/app/.well-known/workflow/v1/step/route.js"),
    ]);
  if (!localWorld) {
    // Several instances take steps from one queue: a run's turns step holds an owner lease in the
    // shared database, and each instance frees the jobs of an instance that died holding one.
    const worldUrl = env.WORKFLOW_POSTGRES_URL ?? env.DATABASE_URL;
    if (!worldUrl) throw new Error("the Postgres world needs WORKFLOW_POSTGRES_URL or DATABASE_URL");
    const { configureStepLeases, stepLeaseTiming } = await import("@coauthor/agent-workflow/server");
    const { databaseStepLeaseStore } = await import("@/server/agent/step-leases");
    configureStepLeases(databaseStepLeaseStore, stepLeaseTiming(env.AGENT_STEP_LEASE_MS));
    // One connection to the world's database for what the app reads of its job queue (the sweep
    // of dead instances' jobs, admission's job capacity).
    const { default: postgres } = await import("postgres");
    const worldSql = postgres(worldUrl, { max: 1, onnotice: () => undefined });
    const { startOrphanedStepSweep } = await import("@/server/workflow/orphaned-steps");
    startOrphanedStepSweep(worldSql, env.AGENT_STEP_LEASE_MS / 2);
    // This world's job runner delivers over loopback HTTP; the engine routes refuse any request
    // without the engine's credential, so it goes into the delivery URL (read at each delivery).
    const { engineDeliveryBaseUrl, engineOnly } = await import("@/server/workflow/engine-delivery");
    process.env.WORKFLOW_LOCAL_BASE_URL = engineDeliveryBaseUrl(
      env.WORKFLOW_LOCAL_BASE_URL ?? `http://localhost:${env.PORT}`,
    );
    // The world made here rather than from the environment: its job concurrency, queue poll
    // interval, delivery cap and job runner events (options our patch of the world adds,
    // patches/) and stream flush interval are the app's settings, which the world would not read.
    const { createWorld } = await import("@workflow/world-postgres");
    // Its job workers' lives, which this instance reports so others can free a dead one's job.
    const { followJobWorkers } = await import("@/server/workflow/job-workers");
    const jobWorkers = followJobWorkers();
    const world = createWorld({
      connectionString: worldUrl,
      jobPrefix: process.env.WORKFLOW_POSTGRES_JOB_PREFIX,
      queueConcurrency: env.WORKFLOW_POSTGRES_WORKER_CONCURRENCY,
      queuePollIntervalMs: env.WORKFLOW_POSTGRES_POLL_INTERVAL_MS,
      // graphile-worker's own default, in place of the world's 3: deliveries claimed by workers
      // that died count too, and a delivery retired for good leaves its run running forever (seen
      // as "runs that do not end" by the fault runner). Its backoff (e^n s) spans days for 25.
      queueMaxAttempts: 25,
      streamFlushIntervalMs: env.WORKFLOW_STREAM_FLUSH_MS,
      queueEvents: jobWorkers.events,
    });
    setWorld(world);
    // Its deliveries (every workflow replay and step) go from server.mjs straight to the engine's
    // handlers, after the proxy's credential check, past Next's proxy and router.
    const [flow, step] = await engineHandlers();
    directRoutes["POST /.well-known/workflow/v1/flow"] = engineOnly(flow.POST);
    directRoutes["POST /.well-known/workflow/v1/step"] = engineOnly(step.POST);
    await world.start();
    // Admission refuses a run no instance has a job slot for (it would wait in silence).
    const { startJobCapacityBeacon } = await import("@/server/workflow/job-capacity");
    await startJobCapacityBeacon(worldSql, env.WORKFLOW_POSTGRES_WORKER_CONCURRENCY, jobWorkers);
  } else {
    // The local world's queue would deliver every workflow and step over HTTP to this very
    // server; the generated handlers take them in-process instead (a request less per hop, and
    // the engine routes, which answer only requests carrying the engine's credential, see none).
    const world = getWorld();
    if (!("registerHandler" in world) || typeof world.registerHandler !== "function") {
      throw new Error(
        "the local world cannot take deliveries in-process (no registerHandler): check @workflow/world-local",
      );
    }
    const [flow, step] = await engineHandlers();
    world.registerHandler("__wkf_workflow_", flow.POST);
    world.registerHandler("__wkf_step_", step.POST);
  }
  // Tool results too: every round trip of every run pays Next's cost.
  const [{ serveDirectly }, callback] = await Promise.all([
    import("@/server/http/direct-routes"),
    import("@/app/api/llm/agent/callback/route"),
  ]);
  directRoutes["POST /api/llm/agent/callback"] = callback.POST;
  serveDirectly(directRoutes);
  // The Yjs sync server: server.mjs hands it the WebSocket upgrades on /collab.
  const { closeUserSockets, getSyncServer } = await import("@/server/collab/sync-server");
  getSyncServer();
  // A version of a document once people pause editing it (at most one per interval).
  const { EditVersions } = await import("@/server/collab/edit-versions");
  const { onLocalChange } = await import("@/server/collab/storage-extension");
  const { lastEditVersionAt, saveEditVersion } = await import("@/server/versions");
  const editVersions = new EditVersions({
    pauseMs: env.VERSION_PAUSE_MS,
    intervalMs: env.VERSION_INTERVAL_MS,
    lastTakenAt: lastEditVersionAt,
    take: saveEditVersion,
  });
  const { noteVersionEditor } = await import("@/server/collab/version-editors");
  onLocalChange((documentId, editorId) => {
    editVersions.noteChange(documentId, editorId);
    if (editorId !== undefined) noteVersionEditor(documentId, editorId);
  });
  // Whole-document work (imports, exports, the check of a state as it opens) runs in worker
  // threads; the first starts now, since loading the editor's modules takes it seconds.
  const { warmDocumentWork } = await import("@/server/document-work/worker-pool");
  warmDocumentWork();
  // "Sign out everywhere" also closes the user's open sync sockets, on every instance: a revoked
  // session must not keep editing (auth.ts reports the revocation).
  const { onSessionsRevoked } = await import("@/server/auth/session-revocation");
  onSessionsRevoked(closeUserSockets);
  // Run logs past RUN_LOG_RETENTION_DAYS, deleted documents' runs, expired rate-limit counters.
  const { startRetentionSweep } = await import("@/server/retention-sweep");
  startRetentionSweep();
  // What a deleted document's runs still write after their purge, removed within seconds.
  const { startLateWritePurge } = await import("@/server/document-deletion");
  startLateWritePurge();
  const { recoverRunsWhenListening } = await import("@/server/agent/recover-runs");
  // Not awaited: the local world re-enqueues runs over HTTP to this very
  // server, which only listens after register() returns.
  recoverRunsWhenListening({ port: process.env.PORT ?? "3000", localWorld });
}
