// The machine's PostgreSQL and Redis, for tests that run several instances of the app on shared
// storage (the project's machines run them on their standard ports; TEST_DATABASE_URL /
// TEST_REDIS_URL point elsewhere). Each test file gets a database of its own.
import { randomUUID } from "node:crypto";
import { connect } from "node:net";
import postgres from "postgres";

/** The PostgreSQL server the test databases are created on (as its administrator). */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** The Redis the instances share. */
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

async function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || defaultPort), hostname);
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Fails with a message saying what is missing unless PostgreSQL and Redis answer. */
export async function requireSharedServices(): Promise<void> {
  if (!(await reachable(ADMIN_URL, 5432)))
    throw new Error(
      `PostgreSQL is not reachable at ${ADMIN_URL} (set TEST_DATABASE_URL); this test needs it`,
    );
  if (!(await reachable(REDIS_URL, 6379)))
    throw new Error(`Redis is not reachable at ${REDIS_URL} (set TEST_REDIS_URL); this test needs it`);
}

/** A fresh, empty database (named after `label`); `url` reaches it, `drop()` removes it. */
export async function createTestDatabase(
  label: string,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `coauthor_${label}_${randomUUID().replaceAll("-", "")}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const cleanup = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
      await cleanup.unsafe(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
