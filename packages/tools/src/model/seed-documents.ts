// The documents every copy starts from: real prose with a heading, formatting, a nested list, a
// numbered list, a check list and a quote, so people and the agent meet every kind of block.

export const SEED_DOCUMENTS = [
  [
    "# Harbour log",
    "The river rose overnight and the **bridge** is closed until Friday.",
    "We moved the boats to the upper dock and checked every line twice.",
    "- sandbags on the north bank\n- pumps in the boathouse\n  - the small pump needs fuel\n- call the harbour office",
    "> Nothing is lost that cannot be replaced.",
    "Next week we plan to repaint the hull and fix the *railing*.",
  ].join("\n\n"),
  [
    "## Meeting notes",
    "Present: Ana, Bruno and Chloe.",
    "1. budget review\n2. hiring plan",
    "Action items follow below.",
    "- [ ] send the draft\n- [x] book the room",
    "Closing remarks were short.",
  ].join("\n\n"),
  "A short letter to the team.\n\nThanks for the quick help last week.",
] as const;

/** Seed document `n` (modulo the list). */
export function seedDocument(n: number): string {
  return SEED_DOCUMENTS[n % SEED_DOCUMENTS.length] ?? SEED_DOCUMENTS[0];
}
