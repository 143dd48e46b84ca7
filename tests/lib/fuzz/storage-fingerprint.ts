// A fingerprint of everything a server stores: each table of its PostgreSQL database (every schema
// but PostgreSQL's own, found from the catalogue, so a table added later is watched without anyone
// listing it) as row count + md5 of its rows in order, and the files of its data folder (the local
// workflow world's runs, events and streams) as names and sizes. Two fingerprints differ exactly
// where storage changed.
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import postgres from "postgres";

/** `schema.table` (or `files`) → a digest of its content. */
export type Fingerprint = Map<string, string>;

/**
 * Tables that change on requests the app refuses, on purpose, each with the reason:
 * - `public.rate_limit_points`: a limiter counts attempts, refused ones included (that is its job:
 *   a flood of bad sign-ins is limited too).
 */
export const VOLATILE_TABLES: ReadonlyMap<string, string> = new Map([
  ["public.rate_limit_points", "limiters count refused attempts too"],
]);

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Reads fingerprints of one server's stores (its database at `databaseUrl`, its data folder). */
export class StorageFingerprinter {
  private readonly sql: postgres.Sql;
  private readonly dataDir: string;
  private statement: string | null = null;

  constructor(databaseUrl: string, dataDir: string) {
    this.sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
    this.dataDir = dataDir;
  }

  /** The tables watched (all user tables but the volatile ones), as `schema.table`. */
  async tables(): Promise<string[]> {
    const rows = await this.sql<{ name: string }[]>`
      select table_schema || '.' || table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
      order by 1`;
    const tables = rows.map((row) => row.name).filter((name) => !VOLATILE_TABLES.has(name));
    if (tables.length === 0) throw new Error("no tables found: the storage invariant would prove nothing");
    return tables;
  }

  /** The fingerprint of every watched table and of the data folder's files, now. */
  async read(): Promise<Fingerprint> {
    // The table list is read once the server has migrated its database; one statement reads all.
    this.statement ??= (await this.tables())
      .map((name) => {
        const [schema = "", table = ""] = name.split(".");
        return `select '${name}' as name, count(*) || ':' || coalesce(md5(string_agg(t::text, E'\\n' order by t::text)), '') as digest from ${quoted(schema)}.${quoted(table)} t`;
      })
      .join(" union all ");
    const rows = await this.sql.unsafe<{ name: string; digest: string }[]>(this.statement);
    const fingerprint: Fingerprint = new Map(rows.map((row) => [row.name, row.digest]));
    fingerprint.set("files", filesDigest(this.dataDir));
    return fingerprint;
  }

  /** Ends the database connection. */
  async close(): Promise<void> {
    await this.sql.end();
  }
}

/** Names and sizes of the files under `folder` (what a new or written file changes). */
function filesDigest(folder: string): string {
  const entries: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const size = statSync(path, { throwIfNoEntry: false })?.size;
        // A file removed between listing and reading (a lock let go) is gone: nothing to count.
        if (size !== undefined) entries.push(`${relative(folder, path)}:${size}`);
      }
    }
  };
  walk(folder);
  return entries.sort().join("\n");
}

/** The places whose content differs between two fingerprints. */
export function changedPlaces(before: Fingerprint, after: Fingerprint): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}
