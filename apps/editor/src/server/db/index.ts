import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { env } from "@/env";
import { dataDir } from "@/server/data-dir";
import { DATABASE_LINK_OPTIONS } from "./link-options";
import { byteaCodec } from "./pglite-bytea";
import { prepareStatementsOnce } from "./pglite-statements";
import * as schema from "./schema";

/** The query layer: the same Drizzle API on PGlite (embedded) and PostgreSQL. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

const MIGRATIONS = join(process.cwd(), "drizzle");
const KEY = Symbol.for("coauthor.db");
type Holder = typeof globalThis & { [KEY]?: Promise<Database> };

async function open(): Promise<Database> {
  if (env.DATABASE_URL) {
    const [{ default: postgres }, { drizzle }, { migrate }] = await Promise.all([
      import("postgres"),
      import("drizzle-orm/postgres-js"),
      import("drizzle-orm/postgres-js/migrator"),
    ]);
    const client = postgres(env.DATABASE_URL, { ...DATABASE_LINK_OPTIONS, max: 10 });
    const db = drizzle(client, { schema });
    // Instances starting together migrate one at a time (creating the migrations table races).
    const lock = await client.reserve();
    try {
      await lock`select pg_advisory_lock(hashtext('coauthor:migrations'))`;
      await migrate(db, { migrationsFolder: MIGRATIONS });
    } finally {
      await lock`select pg_advisory_unlock(hashtext('coauthor:migrations'))`;
      lock.release();
    }
    return db as unknown as Database;
  }
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  // PGlite does not create the parent of its data folder.
  const folder = join(dataDir(), "pglite");
  mkdirSync(dataDir(), { recursive: true });
  const pg = new PGlite(folder, byteaCodec);
  // Every statement runs on the main thread in WebAssembly: parse and plan each text once.
  prepareStatementsOnce(pg);
  const db = drizzle(pg, { schema });
  await migrate(db, { migrationsFolder: MIGRATIONS });
  return db as unknown as Database;
}

/** The process-wide database, migrated on first use (one instance even across Next bundles). */
export function getDb(): Promise<Database> {
  const holder = globalThis as Holder;
  holder[KEY] ??= open().catch((error: unknown) => {
    delete holder[KEY];
    throw error;
  });
  return holder[KEY];
}

export { schema };
