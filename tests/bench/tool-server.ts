// The one server a bench tool (profile-trip, first-delta-spans) measures.
import { AppServer } from "../lib/app-server.ts";
import { startInstances } from "../lib/instances.ts";

/**
 * One server of the build with `env`: on the embedded defaults (the local world), or with
 * `--postgres` among the tool's arguments, one instance on the Postgres world in a fresh database,
 * as the bench measures it.
 */
export async function startToolServer(
  label: string,
  env: Record<string, string>,
): Promise<{ server: AppServer; dispose: () => Promise<void> }> {
  if (process.argv.includes("--postgres")) {
    const started = await startInstances({ label, postgresWorld: true, count: 1, env });
    return { server: started.servers[0] as AppServer, dispose: started.dispose };
  }
  const server = new AppServer(env);
  await server.start();
  return { server, dispose: () => server.dispose() };
}
