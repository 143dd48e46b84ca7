// Marker words: what the model's people and agent write, so the test can tell whether each piece of
// text it wrote is still there. "ZQ" (a person) or "ZA" (the agent) and four letters A–P: no two
// markers and no word of the seed documents can run together into another marker.

/** Every marker word in a text. */
export const TOKEN_PATTERN = /Z[QA][A-P]{4}/g;

const DIGITS = "ABCDEFGHIJKLMNOP";

/** The `n`-th marker word of a person ("ZQ…") or of the agent ("ZA…"). */
export function markerWord(n: number, author: "human" | "agent"): string {
  let letters = "";
  for (let rest = n, i = 0; i < 4; i++, rest = Math.floor(rest / 16)) letters = DIGITS[rest % 16] + letters;
  return `${author === "human" ? "ZQ" : "ZA"}${letters}`;
}
