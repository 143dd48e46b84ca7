// Hostile URLs: dynamic path segments filled with real ids or hostile strings, query parameters
// broken one at a time, everything percent-encoded (lone surrogates too).
import fc from "fast-check";
import { hostileKey, hostileString, hostileValue, jsonText } from "./hostile-values.ts";

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
export function queryText(pairs: [string, string][]): string {
  if (pairs.length === 0) return "";
  return `?${pairs.map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`).join("&")}`;
}

/** A query string from `template` with one parameter broken (replaced, dropped, repeated) or an extra one. */
export function brokenQuery(template: Record<string, string>): fc.Arbitrary<{ text: string; note: string }> {
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

/** A dynamic segment of a route pattern: `[runId]`, or a catch-all `[...all]`. */
export const SEGMENT = /\[(\.\.\.)?([^\]]+)\]/g;

/** The path of `pattern` with its dynamic segments filled: real values mostly, hostile strings too. */
export function filledPath(pattern: string, real: Record<string, string>, fallback: string[]) {
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
