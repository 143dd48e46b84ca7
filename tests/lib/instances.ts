// Several instances of the same build on one PostgreSQL database (a fresh one, dropped after) and
// the machine's Redis, with the keys every instance must share: the scale-out setup of the README.
import { randomBytes } from "node:crypto";
import { AppServer } from "./app-server.ts";
import { createTestDatabase, REDIS_URL, requireSharedServices } from "./shared-services.ts";

/** Running instances, their database, and `dispose()` that stops them and drops it. */
export interface Instances {
  servers: AppServer[];
  databaseUrl: string;
  dispose(): Promise<void>;
}

/**
 * Starts `count` instances at once, as a container platform would (each applies migrations and,
 * on the Postgres world, the world's tables itself, one at a time). `label` names the database.
 */
export async function startInstances(options: {
  label: string;
  env?: Record<string, string>;
  /** Runs on Workflow DevKit's Postgres world (in the same database) instead of each its own local one. */
  postgresWorld?: boolean;
  count?: number;
}): Promise<Instances> {
  await requireSharedServices();
  const database = await createTestDatabase(options.label);
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    REDIS_URL,
    // Tests read from the log which instance runs a run's step ("tool call requested").
    LOG_LEVEL: "info",
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    HOOK_TOKEN_SECRET: randomBytes(32).toString("base64url"),
    // The world's database defaults to DATABASE_URL (start.mjs), as the README tells operators.
    ...(options.postgresWorld ? { WORKFLOW_TARGET_WORLD: "@workflow/world-postgres" } : {}),
    ...options.env,
  };
  const servers = Array.from({ length: options.count ?? 2 }, () => new AppServer(env));
  const dispose = async () => {
    for (const server of servers) await server.dispose();
    await database.drop();
  };
  try {
    await Promise.all(servers.map((server) => server.start()));
  } catch (error) {
    await dispose();
    throw error;
  }
  return { servers, databaseUrl: database.url, dispose };
}
