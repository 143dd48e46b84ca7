// Generated hostile values: what an attacker puts where a route expects a string, a number or an
// object. A value is either JSON (serialised with JSON.stringify, which escapes NUL and lone
// surrogates, so the server's parser hands them on as they are) or raw JSON text, for what
// JSON.stringify cannot say: nesting too deep to build as an object, numbers out of range,
// malformed text. And hostile session cookies, for the places that read one.
import fc from "fast-check";

/** A value for a field (or a whole body): JSON, or raw JSON text put in as is. */
export type HostileValue = { json: unknown } | { raw: string };

/** Printable summary of a value (fast-check's counterexample; 100k-character strings are cut). */
export function describeValue(value: HostileValue): string {
  const text = "raw" in value ? `raw:${value.raw}` : (JSON.stringify(value.json) ?? "undefined");
  return text.length > 120 ? `${text.slice(0, 100)}…(${text.length} chars)` : text;
}

/** The JSON text of a value. */
export function jsonText(value: HostileValue): string {
  return "raw" in value ? value.raw : (JSON.stringify(value.json) ?? "null");
}

const C0 = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code));
const C1 = Array.from({ length: 33 }, (_, index) => String.fromCharCode(0x7f + index));
/** Invisible and direction-changing characters: zero-width, joiners, bidi overrides, BOM. */
const INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u202a", "\u202e", "\u2066", "\ufeff"];

/** One character a storage layer, a parser or a header may choke on. */
const hostileChar = fc.oneof(
  fc.constantFrom(...C0, ...C1, ...INVISIBLE, "\u2028", "\u2029", "\\", '"', "'", "%", "/", "\ufffd"),
  // Lone surrogates (high or low half): not UTF-8-encodable, so SQL and JSON tools may refuse them.
  fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
  fc.constantFrom("🙂", "\u{10ffff}", "ﷺ", "\u0301"),
);

/** Strings that meant something to some layer once. */
const NAMED_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "\r\n",
  "line\r\nSet-Cookie: x=y",
  "\u202eevil\u202c",
  "\u200b",
  "'; drop table documents; --",
  "../../../etc/passwd",
  "%00",
  "%2e%2e%2f",
  "<script>alert(1)</script>",
  "javascript:alert(1)",
  "//evil.example",
  "/\t/evil.example",
  "__proto__",
  "constructor",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-1",
  "1e308",
  "9007199254740993",
  "true",
  "[]",
  "{}",
];

/** Lengths around the caps the schemas set (titles 200, ids 100, prompts 20,000) and far past them. */
const LONG_LENGTHS = [101, 201, 4_001, 20_001, 100_000];

/** Hostile strings: named ones, generated mixes of hostile characters, and very long ones. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NAMED_STRINGS) },
  {
    weight: 4,
    arbitrary: fc
      .array(fc.oneof(hostileChar, fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 12 })
      .map((parts) => parts.join("")),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...LONG_LENGTHS), fc.constantFrom("x", "\u0000", "é", "🙂", "\u200b"))
      .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length))),
  },
);

/** Numbers where a string, a count or an id is expected, and past every range. */
const hostileNumber: fc.Arbitrary<HostileValue> = fc.oneof(
  fc
    .constantFrom(0, -0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, -(2 ** 31) - 1, 2 ** 32, Number.MIN_VALUE)
    .map((json) => ({ json })),
  fc.integer().map((json) => ({ json })),
  // Not representable by JSON.stringify: parsed as Infinity, as a huge integer, or invalid JSON.
  fc
    .constantFrom("1e400", "-1e400", "123456789012345678901234567890", "NaN", "-Infinity", "0x10", "01")
    .map((raw) => ({ raw })),
  // Numbers sent as strings (a coercing schema would take them).
  fc.constantFrom("NaN", "1e308", "-1", "9007199254740993", "Infinity").map((json) => ({ json })),
);

/** Nesting deep enough to hit a recursion limit (the server's limit, or the stack). */
const deepNesting: fc.Arbitrary<HostileValue> = fc
  .tuple(fc.constantFrom(33, 65, 1_000, 5_000, 100_000), fc.constantFrom("array", "object"))
  .map(([depth, shape]) =>
    shape === "array"
      ? { raw: `${"[".repeat(depth)}1${"]".repeat(depth)}` }
      : { raw: `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}` },
  );

/** Malformed JSON text: unterminated, raw control characters in a string, bad escapes. */
const malformed: fc.Arbitrary<HostileValue> = fc
  .constantFrom(
    '"unterminated',
    '"a\u0000b"',
    '"line\nbreak"',
    '"\\x00"',
    '"\\ud800"',
    "{",
    "[1,]",
    "nul",
    "",
  )
  .map((raw) => ({ raw }));

/** Values of the wrong type for any field (and an own `__proto__` key, which only raw text can carry). */
const wrongType: fc.Arbitrary<HostileValue> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, [], {}, [""], { $ne: null }, [[[]]]).map((json) => ({ json })),
  fc.constant({ raw: '{"__proto__":{"admin":true}}' }),
);

/** Any hostile value for a field: strings, numbers, wrong types, deep nesting, malformed text, big arrays. */
export const hostileValue: fc.Arbitrary<HostileValue> = fc.oneof(
  { weight: 6, arbitrary: hostileString.map((json) => ({ json })) },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 2, arbitrary: wrongType },
  { weight: 1, arbitrary: deepNesting },
  { weight: 1, arbitrary: malformed },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((json) => ({ json })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(1_000, 50_000).map((length) => ({ json: Array.from({ length }, () => "x") })),
  },
);

/** A hostile object key (keys reach storage too: JSON columns, records). */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "",
    "\u0000",
    "\ud800",
    "$where",
    "a.b",
    "toString",
  ),
  hostileString,
);

/** Session cookies a forger or a broken client sends: garbage, cut, tampered, percent-mangled, huge. */
export function hostileCookie(realCookie: string): fc.Arbitrary<string> {
  const realToken = /coauthor\.session_token=([^;]+)/.exec(realCookie)?.[1] ?? "x";
  const printable = fc.string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
    maxLength: 80,
  });
  const name = fc.constantFrom(
    "coauthor.session_token",
    "coauthor.session_data",
    "coauthor.dont_remember",
    "__Secure-coauthor.session_token",
  );
  const value = fc.oneof(
    printable,
    fc.constantFrom("", "%", "%FF%FE", "%00", '"x', "a.b.c", "x".repeat(8_000), "null", "undefined"),
    // A real session token with one character of its token or signature changed.
    fc.nat({ max: Math.max(0, realToken.length - 1) }).map((at) => {
      const flipped = realToken[at] === "A" ? "B" : "A";
      return `${realToken.slice(0, at)}${flipped}${realToken.slice(at + 1)}`;
    }),
  );
  return fc
    .array(fc.tuple(name, value), { minLength: 1, maxLength: 3 })
    .map((pairs) => pairs.map(([key, text]) => `${key}=${text}`).join("; "));
}
