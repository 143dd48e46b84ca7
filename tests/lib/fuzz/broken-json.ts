// Breaking a valid JSON input one thing at a time: a value replaced by a hostile one (as raw
// text, so deep nesting and out-of-range numbers fit), dropped, an extra hostile key, a duplicate
// key in the raw text, or the whole body replaced.
import fc from "fast-check";
import { describeValue, hostileKey, hostileValue, jsonText } from "./hostile-values.ts";

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
