// Generated hostile requests: a valid-shaped input (see input-models.ts) with one thing broken —
// a field replaced by a hostile value, dropped, duplicated in the raw JSON text, an extra hostile
// key, or the whole body replaced — sent with a JSON content type mostly, sometimes another or
// none, and now and then a foreign Origin. Path segments get real ids or hostile strings.
import fc from "fast-check";
import { describeValue, hostileKey, hostileString, hostileValue, jsonText } from "./hostile-values.ts";
import type { RequestShape } from "./input-models.ts";
import type { HttpMethod } from "./route-catalogue.ts";

/** One request to send (path already percent-encoded). */
export interface FuzzRequest {
  method: HttpMethod;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** What was broken, for the counterexample. */
  note: string;
  [fc.toStringMethod]: () => string;
}

type Key = string | number;
type Edit = { path: Key[]; text: string | null };

/** JSON text of `node` with one edit applied: the value at `edit.path` replaced by raw text, or dropped (null). */
function render(node: unknown, edit: Edit | null, at: Key[] = []): string {
  if (edit && at.length === edit.path.length && at.every((key, index) => key === edit.path[index]))
    return edit.text ?? "null";
  const dropped = (key: Key) =>
    edit?.text === null && edit.path.length === at.length + 1 && edit.path[at.length] === key;
  if (Array.isArray(node)) {
    const items = node.flatMap((item, index) => (dropped(index) ? [] : [render(item, edit, [...at, index])]));
    return `[${items.join(",")}]`;
  }
  if (node !== null && typeof node === "object") {
    const entries = Object.entries(node).flatMap(([key, value]) =>
      dropped(key) ? [] : [`${JSON.stringify(key)}:${render(value, edit, [...at, key])}`],
    );
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(node) ?? "null";
}

/** Every path to a value inside `node` (objects and arrays walked; the root excluded). */
function valuePaths(node: unknown, at: Key[] = []): Key[][] {
  if (node === null || typeof node !== "object") return [];
  const children: [Key, unknown][] = Array.isArray(node)
    ? node.map((item, index) => [index, item])
    : Object.entries(node);
  return children.flatMap(([key, child]) => [[...at, key], ...valuePaths(child, [...at, key])]);
}

/** JSON text with `entry` (raw `"key":value`) added first or last at the top level of an object text. */
function withEntry(objectText: string, entry: string, first: boolean): string {
  const inner = objectText.slice(1, -1);
  if (inner === "") return `{${entry}}`;
  return first ? `{${entry},${inner}}` : `{${inner},${entry}}`;
}

/** A JSON text: `template` (a valid input) with one thing broken, or whole hostile, or valid as is. */
export function brokenJson(template: unknown): fc.Arbitrary<{ text: string | undefined; note: string }> {
  const whole = hostileValue.map((value) => ({
    text: jsonText(value),
    note: `body ${describeValue(value)}`,
  }));
  if (template === undefined || template === null || typeof template !== "object")
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant({ text: undefined, note: "no input" }) },
      { weight: 4, arbitrary: whole },
    );
  const paths = valuePaths(template);
  const topKeys = Object.keys(template);
  const valid = render(template, null);
  const options: fc.WeightedArbitrary<{ text: string | undefined; note: string }>[] = [
    { weight: 1, arbitrary: fc.constant({ text: valid, note: "valid" }) },
    { weight: 2, arbitrary: whole },
    {
      weight: 1,
      arbitrary: fc.tuple(hostileKey, hostileValue).map(([key, value]) => ({
        text: withEntry(valid, `${JSON.stringify(key)}:${jsonText(value)}`, false),
        note: `extra key ${JSON.stringify(key).slice(0, 40)}=${describeValue(value)}`,
      })),
    },
  ];
  if (paths.length > 0) {
    options.push(
      {
        weight: 7,
        arbitrary: fc.tuple(fc.constantFrom(...paths), hostileValue).map(([path, value]) => ({
          text: render(template, { path, text: jsonText(value) }),
          note: `${path.join(".")}=${describeValue(value)}`,
        })),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...paths).map((path) => ({
          text: render(template, { path, text: null }),
          note: `${path.join(".")} dropped`,
        })),
      },
    );
  }
  if (topKeys.length > 0) {
    // Duplicate keys: which one wins differs between parsers (a check on one, use of the other).
    options.push({
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...topKeys), hostileValue, fc.boolean())
        .map(([key, value, first]) => ({
          text: withEntry(valid, `${JSON.stringify(key)}:${jsonText(value)}`, first),
          note: `duplicate ${key}=${describeValue(value)} ${first ? "first" : "last"}`,
        })),
    });
  }
  return fc.oneof(...options);
}

/**
 * Percent-encodes any string for a URL, lone surrogates included: they become the bytes a
 * careless UTF-16 → UTF-8 encoder writes for them (invalid UTF-8), which encodeURIComponent
 * refuses to produce.
 */
export function percentEncode(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
      out += bytes.map((byte) => `%${byte.toString(16).toUpperCase()}`).join("");
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** `?key=value&…`, percent-encoded (empty for no pairs). */
function queryText(pairs: [string, string][]): string {
  if (pairs.length === 0) return "";
  return `?${pairs.map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`).join("&")}`;
}

/** A query string from `template` with one parameter broken (replaced, dropped, repeated) or an extra one. */
function brokenQuery(template: Record<string, string>): fc.Arbitrary<{ text: string; note: string }> {
  const encode = queryText;
  const pairs = Object.entries(template);
  const hostileParam = fc.oneof(hostileString, hostileValue.map(jsonText));
  const options: fc.Arbitrary<{ text: string; note: string }>[] = [
    fc.constant({ text: encode(pairs), note: "valid query" }),
    fc.tuple(hostileKey, hostileParam).map(([key, value]) => ({
      text: encode([...pairs, [key, value]]),
      note: `query +${key.slice(0, 30)}=${value.slice(0, 40)}`,
    })),
  ];
  if (pairs.length > 0) {
    const keys = pairs.map(([key]) => key);
    options.push(
      fc.tuple(fc.constantFrom(...keys), hostileParam).map(([key, value]) => ({
        text: encode(pairs.map(([k, v]) => [k, k === key ? value : v])),
        note: `query ${key}=${value.slice(0, 60)}${value.length > 60 ? `…(${value.length})` : ""}`,
      })),
      fc.tuple(fc.constantFrom(...keys), hostileParam).map(([key, value]) => ({
        text: encode([...pairs, [key, value]]),
        note: `query ${key} repeated`,
      })),
      fc.constantFrom(...keys).map((key) => ({
        text: encode(pairs.filter(([k]) => k !== key)),
        note: `query ${key} dropped`,
      })),
    );
  }
  return fc.oneof(...options);
}

/** Content types a cross-site page or a careless client sends; JSON most of the time, so bodies get through. */
const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant<string | undefined>("application/json") },
  {
    weight: 2,
    arbitrary: fc.constantFrom<string | undefined>(
      undefined,
      "text/plain",
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json, text/plain",
    ),
  },
);

/** The Origin header: none (a server-side client), the app's own, or a foreign one. */
function originHeader(appOrigin: string) {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant<string | undefined>(undefined) },
    { weight: 2, arbitrary: fc.constant<string | undefined>(appOrigin) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<string | undefined>(
        "https://evil.example",
        "null",
        `${appOrigin}.evil.example`,
      ),
    },
  );
}

/** Last-Event-ID values (a reattaching stream's offset) past every range. */
const lastEventId = fc.constantFrom<string | undefined>(
  undefined,
  undefined,
  undefined,
  "-2",
  "1e308",
  "NaN",
  "9007199254740993",
  "abc",
);

const SEGMENT = /\[(\.\.\.)?([^\]]+)\]/g;

/** The path of `pattern` with its dynamic segments filled: real values mostly, hostile strings too. */
function filledPath(pattern: string, real: Record<string, string>, fallback: string[]) {
  const names = [...pattern.matchAll(SEGMENT)].map((match) => match[2] ?? "");
  if (names.length === 0) return fc.constant({ path: pattern, note: "" });
  const values = names.map((name) => {
    const known = real[name];
    return fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .constantFrom(...(known !== undefined ? [known] : fallback))
          .map((value) => ({ value, real: true })),
      },
      { weight: 2, arbitrary: hostileString.map((value) => ({ value, real: false })) },
    );
  });
  return fc.tuple(...values).map((chosen) => {
    let index = 0;
    const path = pattern.replace(SEGMENT, (_match, catchAll: string | undefined) => {
      const { value, real: isReal } = chosen[index++] ?? { value: "", real: false };
      // A catch-all's real value names several segments (`sign-up/email`): its slashes stay.
      return catchAll && isReal ? value.split("/").map(percentEncode).join("/") : percentEncode(value);
    });
    const hostile = chosen
      .filter((choice) => !choice.real)
      .map((choice) => JSON.stringify(choice.value).slice(0, 40));
    return { path, note: hostile.length > 0 ? `path ${hostile.join(",")}` : "" };
  });
}

const BODY_METHODS = new Set<HttpMethod>(["POST", "PUT", "PATCH", "DELETE"]);

/** Hostile requests to one route and method, built on its valid shapes. */
export function routeRequests(
  method: HttpMethod,
  pattern: string,
  shapes: RequestShape[],
  fallbackSegments: string[],
  appOrigin: string,
): fc.Arbitrary<FuzzRequest> {
  const shapeList = shapes.length > 0 ? shapes : [{}];
  return fc.constantFrom(...shapeList).chain((shape) =>
    fc
      .record({
        path: filledPath(pattern, shape.params ?? {}, fallbackSegments),
        query: brokenQuery(shape.query ?? {}),
        body: BODY_METHODS.has(method) ? brokenJson(shape.body) : fc.constant({ text: undefined, note: "" }),
        contentType: BODY_METHODS.has(method) ? contentType : fc.constant(undefined),
        origin: BODY_METHODS.has(method) ? originHeader(appOrigin) : fc.constant(undefined),
        lastEventId: method === "GET" ? lastEventId : fc.constant(undefined),
      })
      .map((parts) => {
        const headers: Record<string, string> = {};
        if (parts.contentType) headers["content-type"] = parts.contentType;
        if (parts.origin) headers.origin = parts.origin;
        if (parts.lastEventId) headers["last-event-id"] = parts.lastEventId;
        const note = [parts.path.note, parts.query.note, parts.body.note].filter(Boolean).join("; ");
        return fuzzRequest(method, `${parts.path.path}${parts.query.text}`, headers, parts.body.text, note);
      }),
  );
}

/** Hostile calls of one tRPC procedure over HTTP, as the client sends them (and in batches, and with the other method). */
export function procedureRequests(
  path: string,
  type: "query" | "mutation" | "subscription",
  template: Record<string, unknown> | undefined,
  appOrigin: string,
): fc.Arbitrary<FuzzRequest> {
  const natural: HttpMethod = type === "mutation" ? "POST" : "GET";
  return fc
    .record({
      input: brokenJson(template),
      transport: fc.oneof(
        { weight: 8, arbitrary: fc.constant<"single" | "batch" | "other-method">("single") },
        {
          weight: 1,
          arbitrary: fc.constantFrom<"single" | "batch" | "other-method">("batch", "other-method"),
        },
      ),
      contentType,
      origin: originHeader(appOrigin),
    })
    .map(({ input, transport, contentType: type_, origin }) => {
      const method: HttpMethod =
        transport === "other-method" ? (natural === "GET" ? "POST" : "GET") : natural;
      const text =
        input.text === undefined ? undefined : transport === "batch" ? `{"0":${input.text}}` : input.text;
      const batch = transport === "batch" ? "batch=1" : "";
      const note = `${transport} ${input.note}`;
      if (method === "GET") {
        const query = [batch, text === undefined ? "" : `input=${percentEncode(text)}`]
          .filter(Boolean)
          .join("&");
        return fuzzRequest(method, `/api/trpc/${path}${query ? `?${query}` : ""}`, {}, undefined, note);
      }
      const headers: Record<string, string> = {};
      if (type_) headers["content-type"] = type_;
      if (origin) headers.origin = origin;
      return fuzzRequest(method, `/api/trpc/${path}${batch ? `?${batch}` : ""}`, headers, text, note);
    });
}

/** Each shape's valid request (fast-check's first examples, so the accepted path is always exercised). */
export function validRouteRequests(
  method: HttpMethod,
  pattern: string,
  shapes: RequestShape[],
  fallbackSegments: string[],
): FuzzRequest[] {
  return (shapes.length > 0 ? shapes : [{}]).map((shape) => {
    const path = pattern.replace(SEGMENT, (_match, catchAll: string | undefined, name: string) => {
      const value = shape.params?.[name] ?? fallbackSegments[0] ?? "x";
      return catchAll ? value.split("/").map(percentEncode).join("/") : percentEncode(value);
    });
    const hasBody = BODY_METHODS.has(method);
    const headers: Record<string, string> = hasBody ? { "content-type": "application/json" } : {};
    const body = hasBody && shape.body ? JSON.stringify(shape.body) : undefined;
    return fuzzRequest(
      method,
      `${path}${queryText(Object.entries(shape.query ?? {}))}`,
      headers,
      body,
      "valid",
    );
  });
}

/** A procedure's valid call. */
export function validProcedureRequest(
  path: string,
  type: "query" | "mutation" | "subscription",
  template: Record<string, unknown> | undefined,
): FuzzRequest {
  const input = template === undefined ? undefined : JSON.stringify(template);
  if (type !== "mutation") {
    const query = input === undefined ? "" : `?input=${percentEncode(input)}`;
    return fuzzRequest("GET", `/api/trpc/${path}${query}`, {}, undefined, "valid");
  }
  return fuzzRequest("POST", `/api/trpc/${path}`, { "content-type": "application/json" }, input, "valid");
}

function fuzzRequest(
  method: HttpMethod,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
  note: string,
): FuzzRequest {
  const shortPath = path.length > 160 ? `${path.slice(0, 140)}…(${path.length} chars)` : path;
  return {
    method,
    path,
    headers,
    body,
    note,
    [fc.toStringMethod]: () =>
      `${method} ${shortPath} ${JSON.stringify(headers)} [${note}] body ${body === undefined ? "none" : `${body.length} chars`}`,
  };
}
