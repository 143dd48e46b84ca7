// Several instances of the same build on one PostgreSQL database (a fresh one, dropped after) and
// the machine's Redis, with the keys every instance must share: the scale-out setup of the README.
import { randomBytes } from "node:crypto";
import { expect } from "@playwright/test";
import { AppServer } from "./app-server.ts";
import { CoauthorClient } from "./coauthor-client.ts";
import { createTestDatabase, REDIS_URL, requireSharedServices } from "./shared-services.ts";

/** Running instances, their database, and `dispose()` that stops them and drops it. */
export interface Instances {
  servers: AppServer[];
  databaseUrl: string;
  /** Their REDIS_NAMESPACE: by default the database's name, so suites sharing Redis count apart. */
  redisNamespace: string;
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
  /**
   * Where the instances reach PostgreSQL and Redis instead of directly: a proxy's `route` of the
   * URL they would be given (tests/lib/fault-proxy.ts, which cuts the link on purpose). The
   * database is still created, and `databaseUrl` still names it, directly.
   */
  via?: { database?: (url: string) => string; redis?: (url: string) => string };
}): Promise<Instances> {
  await requireSharedServices();
  const database = await createTestDatabase(options.label);
  const env: Record<string, string> = {
    DATABASE_URL: options.via?.database?.(database.url) ?? database.url,
    REDIS_URL: options.via?.redis?.(REDIS_URL) ?? REDIS_URL,
    REDIS_NAMESPACE: database.name,
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
  return {
    servers,
    databaseUrl: database.url,
    redisNamespace: env.REDIS_NAMESPACE ?? database.name,
    dispose,
  };
}

/**
 * The index of the instance whose log says its step asked for this tool call, or -1 while none has
 * said so: a result posted to any other one must cross instances to reach the waiting step.
 */
export function stepHostIndex(servers: AppServer[], runId: string, toolCallId: string): number {
  return servers.findIndex((server) =>
    server.log
      .split("\n")
      .some(
        (line) =>
          line.includes('"tool call requested"') &&
          line.includes(`"runId":"${runId}"`) &&
          line.includes(`"toolCallId":"${toolCallId}"`),
      ),
  );
}

/** The index of the instance whose step asked for this tool call, once its log says so. */
export async function stepHost(servers: AppServer[], runId: string, toolCallId: string): Promise<number> {
  await expect
    .poll(() => stepHostIndex(servers, runId, toolCallId), { timeout: 5_000 })
    .toBeGreaterThanOrEqual(0);
  return stepHostIndex(servers, runId, toolCallId);
}

/** One new user, signed in on every instance (one client each: the same account and session store). */
export async function oneUserOnEach(servers: AppServer[]): Promise<CoauthorClient[]> {
  const [first, ...others] = servers;
  if (!first) throw new Error("no instance");
  const signedUp = await new CoauthorClient(first.url).signIn();
  const rest = await Promise.all(
    others.map((server) =>
      new CoauthorClient(server.url).signInWith({ email: signedUp.email, password: signedUp.password }),
    ),
  );
  return [signedUp, ...rest];
}
