/** Runs once per server start: with the Postgres world, its job queue must be started. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.WORKFLOW_TARGET_WORLD) {
    const { getWorld } = await import("workflow/runtime");
    await getWorld().start?.();
  }
}
