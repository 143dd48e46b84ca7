import { describe, expect, it } from "vitest";
import { registerConcurrentDecisions } from "./concurrent-decisions.ts";
import { runEditorTool } from "./editor-tools.ts";
import { exportMarkdown } from "./markdown.ts";
import { runToolAsSuggestion } from "./suggest-tool-calls.ts";
import { listSuggestions, type SuggestionAuthor } from "./suggestions.ts";
import { exchange } from "./synced-copies.ts";
import { blockIds } from "./tool-cases.ts";
import {
  type BoundDocumentEditor,
  bindDocumentEditor,
  flush,
  yjsUpdateFromMarkdown,
} from "./yjs-document.ts";

// Two people deciding one suggestion the opposite way at the same moment, neither having seen the
// other's decision: the document ends as one of the two decisions alone would leave it, in both
// copies — never with both halves of a replacement gone.

const DOCUMENT = "# Plan\n\nFirst part.\n\nMiddle part.\n\nLast part.";
const AGENT: SuggestionAuthor = { authorId: "alice", authorName: "Coauthor for Alice", runId: "run-1" };

/** Copies of DOCUMENT, a suggestion pending in all, and each copy deciding with the repair on. */
async function pendingIn(count: number, tool: string, input: (ids: string[]) => unknown) {
  const seed = yjsUpdateFromMarkdown(DOCUMENT);
  const copies = Array.from({ length: count }, () => bindDocumentEditor(seed));
  const [first] = copies as [BoundDocumentEditor];
  const call = input(blockIds(first.editor));
  const accepted = bindDocumentEditor(seed);
  await runEditorTool(accepted.editor, tool, call);
  await runToolAsSuggestion(first.editor, tool, call, AGENT);
  for (const copy of copies.slice(1)) exchange(first, copy);
  const deciders = copies.map((copy) => registerConcurrentDecisions(copy.editor, copy.doc));
  const pendingIds = new Set(listSuggestions(first.editor).map((suggestion) => suggestion.id));
  return { copies, deciders, pendingIds, accepted: exportMarkdown(accepted.editor) };
}

/** Exchanges updates between every two copies until none has anything new (a repair is an update too). */
function settle(copies: BoundDocumentEditor[]): void {
  for (let round = 0; round < 4; round++)
    for (const a of copies) for (const b of copies) if (a !== b) exchange(a, b);
}

const CALLS: Array<{ name: string; tool: string; input: (ids: string[]) => unknown }> = [
  {
    name: "a replaced block",
    tool: "replaceBlock",
    input: (ids) => ({ blockId: ids[2], markdown: "Changed part." }),
  },
  {
    name: "words replaced in two blocks",
    tool: "replaceText",
    input: () => ({ search: "part", replace: "piece" }),
  },
  {
    name: "an inserted block",
    tool: "insertBlocks",
    input: (ids) => ({ markdown: "New part.", position: { at: "after", blockId: ids[1] } }),
  },
  { name: "a deleted block", tool: "deleteBlocks", input: (ids) => ({ blockIds: [ids[2]] }) },
];

describe("opposite decisions on one suggestion at the same moment", () => {
  for (const { name, tool, input } of CALLS) {
    for (const [first, second] of [
      ["accept", "reject"],
      ["reject", "accept"],
    ] as const) {
      it(`${name}: one copy ${first}s, the other ${second}s — both end as one decision leaves it`, async () => {
        const { copies, deciders, pendingIds, accepted } = await pendingIn(2, tool, input);
        deciders[0]?.decide(pendingIds, first);
        deciders[1]?.decide(pendingIds, second);
        for (const copy of copies) flush(copy.editor);
        settle(copies);
        const [a, b] = copies as [BoundDocumentEditor, BoundDocumentEditor];
        const result = exportMarkdown(a.editor);
        expect(exportMarkdown(b.editor)).toBe(result);
        expect([accepted, DOCUMENT]).toContain(result);
        expect(listSuggestions(a.editor)).toEqual([]);
        expect(blockIds(b.editor)).toEqual(blockIds(a.editor));
      });
    }
  }

  it("many tries with fresh copies (each a different winner): never a lost or doubled block", async () => {
    const outcomes = new Set<string>();
    for (let attempt = 0; attempt < 20; attempt++) {
      const { copies, deciders, pendingIds, accepted } = await pendingIn(
        2,
        "replaceBlock",
        CALLS[0]?.input ?? (() => ({})),
      );
      deciders[0]?.decide(pendingIds, attempt % 2 === 0 ? "accept" : "reject");
      deciders[1]?.decide(pendingIds, attempt % 2 === 0 ? "reject" : "accept");
      settle(copies);
      const [a, b] = copies as [BoundDocumentEditor, BoundDocumentEditor];
      const result = exportMarkdown(a.editor);
      expect(exportMarkdown(b.editor)).toBe(result);
      expect([accepted, DOCUMENT]).toContain(result);
      outcomes.add(result === accepted ? "accepted" : "rejected");
    }
    // Both ways of winning were taken: the repair ran in both directions.
    expect([...outcomes].sort()).toEqual(["accepted", "rejected"]);
  });

  it("a decision made after seeing another one is not a conflict: nothing is put back", async () => {
    const { copies, deciders, pendingIds, accepted } = await pendingIn(
      2,
      "replaceBlock",
      CALLS[0]?.input ?? (() => ({})),
    );
    const [a, b] = copies as [BoundDocumentEditor, BoundDocumentEditor];
    deciders[0]?.decide(pendingIds, "accept");
    settle(copies);
    expect(exportMarkdown(b.editor)).toBe(accepted);
    // b rejects after a's acceptance reached it (as on a suggestion an undo brought back): its
    // decision names a's as seen, so a does not take it for an opposite decision made at once.
    deciders[1]?.decide(pendingIds, "reject");
    settle(copies);
    expect(exportMarkdown(a.editor)).toBe(accepted);
    expect(exportMarkdown(b.editor)).toBe(accepted);
  });
});
