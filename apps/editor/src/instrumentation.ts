/**
 * Runs once per server start. With the Postgres world its job queue must be
 * started here. With the local world (its queue lives in memory) the runs a
 * previous process left running are recovered once this server answers HTTP.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Configuration is validated now, so a bad variable stops the server at start with its name.
  await import("@/env");
  const { assertModelConfig, configureAgentStore } = await import("@coauthor/agent-workflow/server");
  assertModelConfig();
  // Tool results and the turns step's progress live in the app's database.
  const { databaseAgentStore } = await import("@/server/agent/agent-store");
  configureAgentStore(databaseAgentStore);
  // withWorkflow() (next.config) names the local world "local" when none is configured.
  const target = process.env.WORKFLOW_TARGET_WORLD;
  const localWorld = !target || target === "local";
  if (!localWorld) {
    const { getWorld } = await import("workflow/runtime");
    await getWorld().start?.();
  }
  const { recoverRunsWhenListening } = await import("@/server/agent/recover-runs");
  // Not awaited: the local world re-enqueues runs over HTTP to this very
  // server, which only listens after register() returns.
  recoverRunsWhenListening({ port: process.env.PORT ?? "3000", localWorld });
}
