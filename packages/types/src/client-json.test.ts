import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clientJsonProblem, MAX_JSON_DEPTH, parseClientJson } from "./client-json.ts";

const nested = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

describe("client JSON", () => {
  it("accepts ordinary JSON, including every valid Unicode character", () => {
    expect(parseClientJson('{"title":"Café 🎉","list":[1,{"a":null}]}')).toMatchObject({ ok: true });
    expect(parseClientJson(nested(MAX_JSON_DEPTH))).toMatchObject({ ok: true });
  });

  it("refuses depth, NUL and lone surrogates, naming where", () => {
    expect(parseClientJson(nested(5_000))).toMatchObject({
      ok: false,
      problem: { message: /nested deeper/ },
    });
    expect(parseClientJson('{"a":{"b":"x\\u0000y"}}')).toMatchObject({
      ok: false,
      problem: { path: "body.a.b", message: /NUL/ },
    });
    expect(parseClientJson('["ok","\\ud800"]')).toMatchObject({ ok: false, problem: { path: "body[1]" } });
    expect(parseClientJson('{"\\u0000":1}')).toMatchObject({ ok: false, problem: { message: /key/ } });
    expect(parseClientJson("{not json")).toMatchObject({ ok: false, problem: { message: /not valid JSON/ } });
  });

  it("never throws, whatever the text (deep brackets inside strings included)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        const result = parseClientJson(text);
        if (result.ok) expect(clientJsonProblem(result.value)).toBeNull();
      }),
      { seed: 42, numRuns: 500 },
    );
    expect(parseClientJson(JSON.stringify({ s: "[".repeat(10_000) }))).toMatchObject({ ok: true });
  });
});
