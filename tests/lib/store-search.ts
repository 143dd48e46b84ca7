// Searches every store a server keeps data in for a string: every table of a PostgreSQL database
// (all schemas: the app's and the Postgres world's, found from the catalogue, so a table added
// later is searched without anyone listing it) and every file under a data folder.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";

/** Where the text was found: `schema.table` for rows, the path inside the folder for files. */
export type Place = string;

/**
 * What `text` looks like inside base64 (the local world keeps binary values, such as a run's
 * serialised input, as base64 in its JSON files): one fragment per alignment of the text in the
 * encoded bytes, each without the characters the neighbouring bytes change.
 */
export function base64Fragments(text: string): string[] {
  const bytes = Buffer.from(text, "utf8");
  const fragments: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const start = offset === 0 ? 0 : 4;
    const end = (offset + bytes.length) % 3 === 0 ? encoded.length : encoded.length - 4;
    fragments.push(encoded.slice(start, end));
  }
  return fragments;
}

/** Every form of `text` a store may hold it in: as is, and inside base64. */
const needlesFor = (text: string) => [text, ...base64Fragments(text)];

/** An SQL identifier, quoted (names come from the catalogue, not from input). */
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Runs one SQL statement with positional parameters and returns its rows (PostgreSQL or PGlite). */
type Query = <Row>(text: string, params: unknown[]) => Promise<Row[]>;

/** The tables of every schema but PostgreSQL's own, with their bytea columns. */
async function userTables(query: Query) {
  const rows = await query<{ schema: string; table: string; bytea: string[] | null }>(
    `select t.table_schema as schema, t.table_name as table,
            array_agg(c.column_name::text) filter (where c.data_type = 'bytea') as bytea
     from information_schema.tables t
     join information_schema.columns c on c.table_schema = t.table_schema and c.table_name = t.table_name
     where t.table_type = 'BASE TABLE' and t.table_schema not in ('pg_catalog', 'information_schema')
     group by t.table_schema, t.table_name
     order by 1, 2`,
    [],
  );
  return rows.map((row) => ({ ...row, bytea: row.bytea ?? [] }));
}

/**
 * The tables holding `text` anywhere in a row: in its text form (text, JSON, every column) or
 * inside a binary column (Yjs updates, CBOR, stream chunks) as UTF-8 bytes, as is or
 * base64-encoded. `except` names tables left out on purpose (each with the reason at the call).
 */
async function tablesHoldingIn(query: Query, text: string, except: string[]): Promise<Place[]> {
  const found: Place[] = [];
  const tables = await userTables(query);
  if (tables.length === 0) throw new Error("no tables found: the search would prove nothing");
  for (const { schema, table, bytea } of tables) {
    const name = `${schema}.${table}`;
    if (except.includes(name)) continue;
    const needles = needlesFor(text);
    const conditions: string[] = [];
    needles.forEach((_, index) => {
      const p = `$${index + 1}`;
      conditions.push(`strpos(t::text, ${p}) > 0`);
      for (const column of bytea) {
        conditions.push(`coalesce(position(convert_to(${p}, 'UTF8') in t.${quoted(column)}), 0) > 0`);
      }
    });
    const [row] = await query<{ hits: number }>(
      `select count(*)::int as hits from ${quoted(schema)}.${quoted(table)} t where ${conditions.join(" or ")}`,
      needles,
    );
    if ((row?.hits ?? 0) > 0) found.push(name);
  }
  return found;
}

/** The tables of the PostgreSQL database at `url` holding `text` (see tablesHoldingIn). */
export async function tablesHolding(url: string, text: string, except: string[] = []): Promise<Place[]> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    return await tablesHoldingIn(
      async <Row>(query: string, params: unknown[]) =>
        (await sql.unsafe(query, params as postgres.ParameterOrJSON<never>[])) as unknown as Row[],
      text,
      except,
    );
  } finally {
    await sql.end();
  }
}

/** The tables of the PGlite database in `folder` (its server stopped) holding `text`. */
export async function pgliteTablesHolding(
  folder: string,
  text: string,
  except: string[] = [],
): Promise<Place[]> {
  const db = await PGlite.create(folder);
  try {
    return await tablesHoldingIn(
      async <Row>(query: string, params: unknown[]) => (await db.query<Row>(query, params)).rows,
      text,
      except,
    );
  } finally {
    await db.close();
  }
}

/**
 * The files under `folder` whose name or bytes contain `text`, as is or base64-encoded (paths relative to the folder).
 * The server keeps writing and sweeping while this reads: a file or folder removed between listing and reading
 * holds nothing any more, so it is passed over (any other read error still fails the search).
 */
export function filesHolding(folder: string, text: string): Place[] {
  const needles = needlesFor(text).map((needle) => Buffer.from(needle, "utf8"));
  const found: Place[] = [];
  const walk = (dir: string) => {
    const entries = unlessGone(() => readdirSync(dir, { withFileTypes: true })) ?? [];
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const bytes = unlessGone(() => readFileSync(path));
        if (bytes === undefined) continue;
        if (entry.name.includes(text) || needles.some((needle) => bytes.includes(needle)))
          found.push(relative(folder, path));
      }
    }
  };
  walk(folder);
  return found;
}

/** `read()`'s result, or undefined when what it reads was removed meanwhile (ENOENT). */
function unlessGone<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
