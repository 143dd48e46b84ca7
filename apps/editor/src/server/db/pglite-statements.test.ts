import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PREPARED_STATEMENT_LIMIT, prepareStatementsOnce } from "./pglite-statements";

// Statements prepared once on a real PGlite, checked against PGlite's own `query` on the same
// database: the same rows, types, parsers and errors, a bounded set of prepared statements, and no
// statement run inside another caller's transaction.
let pg: PGlite;
let unprepared: PGlite["query"];

beforeAll(async () => {
  pg = new PGlite();
  await pg.waitReady;
  unprepared = pg.query.bind(pg);
  prepareStatementsOnce(pg);
  await pg.exec(`
    create table items (id integer primary key, name text not null, data jsonb, at timestamptz, tags text[]);
    insert into items values (1, 'one', '{"a": [1, 2]}', '2026-11-28T06:00:00Z', '{x,y}');`);
});
afterAll(() => pg.close());

const preparedNames = async () =>
  (await unprepared<{ name: string }>("select name from pg_prepared_statements order by name")).rows.map(
    (row) => row.name,
  );

describe("a statement prepared once", () => {
  it("returns what PGlite's own query returns: rows, fields and parsed values, in both row modes", async () => {
    const text = "select id, name, data, at, tags from items where id = $1";
    for (const options of [undefined, { rowMode: "array" as const }]) {
      const expected = await unprepared(text, [1], options);
      expect(await pg.query(text, [1], options)).toEqual(expected);
      expect(await pg.query(text, [1], options)).toEqual(expected);
    }
    const row = (await pg.query<{ data: unknown; at: unknown }>(text, [1])).rows[0];
    expect(row?.data).toEqual({ a: [1, 2] });
    expect(row?.at).toBeInstanceOf(Date);
  });

  it("serializes parameters by their types and takes the caller's parsers (as Drizzle's driver passes them)", async () => {
    const text = "insert into items values ($1, $2, $3, $4, $5) returning at";
    const values = [
      2,
      "two",
      { nested: { quote: 'it\'s "here"' } },
      new Date("2026-01-02T03:04:05Z"),
      ["a", "b"],
    ];
    const asText = { parsers: { 1184: (value: string) => value } };
    const result = await pg.query<{ at: unknown }>(text, values, asText);
    expect(result.rows[0]?.at).toBe("2026-01-02 03:04:05+00");
    expect((await unprepared("select data, tags from items where id = 2")).rows[0]).toEqual({
      data: { nested: { quote: 'it\'s "here"' } },
      tags: ["a", "b"],
    });
    expect((await pg.query("select $1::text is null as empty", [null])).rows[0]).toEqual({ empty: true });
  });

  it("parses with the caller's parsers over PGlite's, each caller's set apart", async () => {
    const text = "select id, at, tags from items where id = $1";
    const atAsText = { parsers: { 1184: (value: string) => `at ${value}` } };
    const idAsText = { parsers: { 23: (value: string) => `id ${value}` } };
    for (let i = 0; i < 2; i++) {
      // The override applies; every other column keeps PGlite's parser (array types included).
      expect((await pg.query(text, [1], atAsText)).rows[0]).toEqual({
        id: 1,
        at: "at 2026-11-28 06:00:00+00",
        tags: ["x", "y"],
      });
      expect((await pg.query(text, [1], idAsText)).rows[0]).toEqual({
        id: "id 1",
        at: new Date("2026-11-28T06:00:00Z"),
        tags: ["x", "y"],
      });
      expect((await pg.query(text, [1], { ...atAsText, rowMode: "array" })).rows[0]).toEqual([
        1,
        "at 2026-11-28 06:00:00+00",
        ["x", "y"],
      ]);
    }
    expect((await pg.query(text, [1])).rows[0]).toEqual((await unprepared(text, [1])).rows[0]);
  });

  it("prepares a text once and runs it again by name", async () => {
    const text = "select count(*)::int as n from items where id > $1";
    const before = await preparedNames();
    await pg.query(text, [0]);
    await pg.query(text, [1]);
    expect((await preparedNames()).length).toBe(before.length + 1);
  });

  it("passes PGlite's errors on with their codes and changes nothing; the statement still runs after", async () => {
    const insert = "insert into items (id, name) values ($1, $2)";
    await expect(pg.query(insert, [1, "again"])).rejects.toMatchObject({ code: "23505" });
    await expect(pg.query(insert, [3, null])).rejects.toMatchObject({ code: "23502" });
    await expect(pg.query("select * from no_such_table")).rejects.toMatchObject({ code: "42P01" });
    await expect(pg.query("selec 1")).rejects.toMatchObject({ code: "42601" });
    expect((await unprepared("select name from items where id in (1, 3)")).rows).toEqual([{ name: "one" }]);
    await pg.query(insert, [3, "three"]);
    expect((await unprepared("select name from items where id = 3")).rows).toEqual([{ name: "three" }]);
  });

  it("keeps at most the limit prepared, closing the least recently used", async () => {
    const kept = "select 'kept' as k";
    for (let i = 0; i < PREPARED_STATEMENT_LIMIT + 20; i++) {
      if (i % 50 === 0) await pg.query(kept);
      expect((await pg.query<{ n: number }>(`select ${i} as n`)).rows).toEqual([{ n: i }]);
    }
    expect((await preparedNames()).length).toBe(PREPARED_STATEMENT_LIMIT);
    const before = await preparedNames();
    await pg.query(kept); // used recently: still prepared, so nothing is added or closed
    expect(await preparedNames()).toEqual(before);
  });

  it("waits for a transaction in progress instead of running inside it", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let begun = () => {};
    const inside = new Promise<void>((resolve) => {
      begun = resolve;
    });
    const transaction = pg.transaction(async (tx) => {
      await tx.query("insert into items (id, name) values (10, 'in transaction')");
      begun();
      await held;
      await tx.rollback();
    });
    await inside;
    const outside = pg.query("insert into items (id, name) values (11, 'outside') returning id");
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    expect((await outside).rows).toEqual([{ id: 11 }]);
    // The rollback took the transaction's row only: the statement outside was not in it.
    expect((await unprepared("select id from items where id in (10, 11)")).rows).toEqual([{ id: 11 }]);
  });
});
