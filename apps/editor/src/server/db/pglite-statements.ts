import { type PGlite, parse, protocol, type QueryOptions, type Results } from "@electric-sql/pglite";

/** Parsers by type id, as PGlite keeps and takes them. */
type Parsers = Parameters<typeof parse.parseResults>[1];

/** Statements kept prepared at once; the least recently used is closed past this. */
export const PREPARED_STATEMENT_LIMIT = 256;

/**
 * Makes `pg.query` (the one method Drizzle's PGlite driver sends statements through, outside a
 * transaction) prepare each statement text once, as a named statement of PGlite's one session, and
 * run it again by name. PGlite's own `query` parses, analyses and plans every statement anew, in six
 * calls into WebAssembly on the main thread (parse, describe, bind, describe, execute, sync); a
 * statement run by name is one call and skips the parse and, once PostgreSQL settles on a generic
 * plan, the planning: the tool round trip's claim and checkpoint cost about a third as much.
 *
 * Results are parsed by PGlite's own `parseResults` with the caller's parsers and row mode, and
 * errors are PGlite's `DatabaseError`, so a caller sees what `query` would give it. Statements
 * inside a transaction (`pg.transaction`) are PGlite's own; this waits for a running transaction
 * as `query` does, so a statement never lands inside someone else's.
 */
export function prepareStatementsOnce(pg: PGlite): void {
  const original = pg.query.bind(pg);
  // Statement text → its name and parameter types, in least-recently-used order.
  const statements = new Map<string, { name: string; paramTypes: number[] }>();
  let nextName = 1;

  async function prepare(text: string) {
    const cached = statements.get(text);
    if (cached) {
      statements.delete(text);
      statements.set(text, cached);
      return cached;
    }
    const name = `coauthor_${nextName++}`;
    // The least recently used statement is closed in the same call (forgotten first: it is closed
    // even when the new statement's parse fails).
    const oldest =
      statements.size >= PREPARED_STATEMENT_LIMIT ? statements.entries().next().value : undefined;
    if (oldest) statements.delete(oldest[0]);
    const { messages } = await pg.execProtocol(
      Buffer.concat([
        ...(oldest ? [protocol.serialize.close({ type: "S", name: oldest[1].name })] : []),
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: "S", name }),
        protocol.serialize.sync(),
      ]),
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    statements.set(text, statement);
    return statement;
  }

  // PGlite's `parseResults` copies every default parser (one per type, ~70) into a new object with
  // the caller's on top, on every call (Drizzle passes a new set with each statement). Joined here
  // instead: the caller's few own, falling back to PGlite's through the prototype (which PGlite
  // fills in place, with array types, so nothing goes stale).
  const parsersFor = (options?: QueryOptions): Parsers =>
    options?.parsers ? Object.assign(Object.create(pg.parsers), options.parsers) : pg.parsers;

  async function query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    // PGlite's own start-up statements (it calls `query` before it is ready), binary uploads and
    // explicit parameter types are PGlite's.
    if (!pg.ready || options?.blob !== undefined || options?.paramTypes !== undefined) {
      return original<T>(text, params, options);
    }
    return pg._runExclusiveTransaction(() =>
      pg._runExclusiveQuery(async () => {
        const statement = await prepare(text);
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const type = statement.paramTypes[i] ?? 0;
          const serializer = options?.serializers?.[type] ?? pg.serializers[type];
          return serializer ? serializer(value) : String(value);
        });
        const { messages } = await pg.execProtocol(
          Buffer.concat([
            protocol.serialize.bind({ statement: statement.name, values }),
            protocol.serialize.describe({ type: "P" }),
            protocol.serialize.execute({}),
            protocol.serialize.sync(),
          ]),
          options?.onNotice ? { onNotice: options.onNotice } : {},
        );
        // The parsers go in joined: of the options, `parseResults` reads only the row mode besides.
        const [result] = parse.parseResults(messages, parsersFor(options), { rowMode: options?.rowMode });
        if (!result)
          throw new Error(`PGlite returned no result for a prepared statement: ${text.slice(0, 80)}`);
        return result as Results<T>;
      }),
    );
  }

  pg.query = query;
}
