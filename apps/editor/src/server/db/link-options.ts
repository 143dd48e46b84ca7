import type { Options, PostgresType } from "postgres";

/**
 * How every postgres.js client of the app treats its link to PostgreSQL (issue #35: a link that
 * breaks must be noticed and replaced, and the queries on it must settle, never hang):
 * - a connection attempt gives up after 10 s (default 30), so a query waiting for one fails and
 *   is retried instead of waiting out an outage;
 * - TCP keepalive probes start after 10 s of silence (default 60): a link cut without a reset
 *   (a partition, a peer gone) is found sooner;
 * - a connection idle for a minute is closed (default: never), so the pool does not keep sockets
 *   that died while nobody used them;
 * - after a connection fails, the next attempt waits at most 2 s (the default grows with every
 *   failure of the pool, to 20 s: after an outage that reset ten connections, queries waited that
 *   long for a database that had been back for most of it).
 * The queries on a connection that closes settle with CONNECTION_CLOSED; that part is postgres.js
 * itself, patched (patches/postgres@3.4.9.patch, tested in tests/chaos/database-link.spec.ts).
 */
export const DATABASE_LINK_OPTIONS = {
  connect_timeout: 10,
  keep_alive: 10,
  idle_timeout: 60,
  backoff: (attempts: number) => Math.min(0.1 * 2 ** attempts, 2),
  onnotice: () => undefined,
} satisfies Options<Record<string, PostgresType>>;
