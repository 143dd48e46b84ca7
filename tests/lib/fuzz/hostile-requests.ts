// Generated hostile requests: a valid-shaped input (see input-models.ts) with one thing broken
// (broken-json.ts, hostile-urls.ts), sent with a JSON content type mostly, sometimes another or
// none, and now and then a foreign Origin.
import fc from "fast-check";
import { brokenJson } from "./broken-json.ts";
import { brokenQuery, filledPath, percentEncode, queryText, SEGMENT } from "./hostile-urls.ts";
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

const BODY_METHODS = new Set<HttpMethod>(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Longest route URL sent. Longer ones do not reach an app behind a proxy (nginx refuses URLs over
 * 8 KiB), and Next's own redirects for an empty segment (`/api/runs//events` → one slash) echo the
 * URL into a Location header, which Node's fetch cannot read past 16 KiB: a limit of the client,
 * not of the app. (tRPC inputs are longer at times: Node answers 431 to those, past 16 KiB.)
 */
const MAX_URL_CHARS = 8_192;

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
      })
      .filter((request) => request.path.length <= MAX_URL_CHARS),
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

/** `request` with a Cookie header of its own (sent by a caller that has none). */
export function withCookie(request: FuzzRequest, cookie: string): FuzzRequest {
  return fuzzRequest(
    request.method,
    request.path,
    { ...request.headers, cookie },
    request.body,
    `cookie ${cookie.slice(0, 80)}${cookie.length > 80 ? `…(${cookie.length})` : ""}`,
  );
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
