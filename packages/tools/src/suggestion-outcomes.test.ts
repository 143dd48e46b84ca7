import { MAX_OUTCOMES_PER_RESULT } from "@coauthor/types";
import { toolSchemas } from "@coauthor/types/tools";
import { describe, expect, it, vi } from "vitest";
import { runToolAsSuggestion } from "./suggest-tool-calls.ts";
import { recordSuggestionOutcomes, tellSuggestionOutcomes } from "./suggestion-outcomes.ts";
import {
  $decideSuggestions,
  listSuggestions,
  type PendingSuggestion,
  type SuggestionAuthor,
} from "./suggestions.ts";
import { exchange } from "./synced-copies.ts";
import { blockIds } from "./tool-cases.ts";
import { type BoundDocumentEditor, bindDocumentEditor, yjsUpdateFromMarkdown } from "./yjs-document.ts";

// A run's model hears which of its suggestions people decided: Bob decides in his copy, and the
// run's next call — in Alice's copy, where her tab runs it — carries the outcome, once.

const RUN: SuggestionAuthor = { authorId: "alice", authorName: "Coauthor for Alice", runId: "run-1" };

function copies(markdown: string): { tab: BoundDocumentEditor; bob: BoundDocumentEditor } {
  const seed = yjsUpdateFromMarkdown(markdown);
  return { tab: bindDocumentEditor(seed), bob: bindDocumentEditor(seed) };
}

/** Bob decides every pending suggestion in his copy as the review does: the edit, then the note. */
function bobDecides(
  bob: BoundDocumentEditor,
  decision: "accept" | "reject",
  only?: (text: string) => boolean,
) {
  const pending = listSuggestions(bob.editor).filter((item) => only?.(item.inserted) ?? true);
  bob.editor.update(() => void $decideSuggestions(new Set(pending.map((item) => item.id)), decision), {
    discrete: true,
  });
  recordSuggestionOutcomes(bob.doc, pending, decision, "Bob");
}

const readResult = { ok: true, blocks: [], totalBlocks: 0, nextFromBlock: null };

describe("people's decisions on a run's suggestions reach its model", () => {
  it("tells the run's next call who rejected and accepted what, once, in a result its schema keeps", async () => {
    const { tab, bob } = copies("Alpha.\n\nBeta.");
    const [, beta] = blockIds(tab.editor);
    await runToolAsSuggestion(
      tab.editor,
      "insertBlocks",
      { markdown: "Gamma.", position: { at: "end" } },
      RUN,
    );
    await runToolAsSuggestion(tab.editor, "replaceBlock", { blockId: beta, markdown: "Beta two." }, RUN);
    exchange(tab, bob);
    bobDecides(bob, "reject", (text) => text === "Gamma.");
    bobDecides(bob, "accept");
    exchange(tab, bob);

    const told = tellSuggestionOutcomes(tab.doc, "run-1", readResult);
    const parsed = toolSchemas.readDocument.output.parse(told);
    if (!parsed.ok) throw new Error("expected a success");
    expect(parsed.decidedByPeople).toEqual([
      { decision: "reject", by: "Bob", blockId: expect.any(String), text: "Gamma." },
      { decision: "accept", by: "Bob", blockId: beta, text: "Beta two." },
    ]);
    // Told once, in every copy: the entries left the shared document.
    expect(tellSuggestionOutcomes(tab.doc, "run-1", readResult)).toEqual(readResult);
    exchange(tab, bob);
    expect(tellSuggestionOutcomes(bob.doc, "run-1", readResult)).toEqual(readResult);
  });

  it("keeps them for a success: a failure, another run and people's own suggestions take none", async () => {
    const { tab, bob } = copies("Alpha.");
    await runToolAsSuggestion(
      tab.editor,
      "insertBlocks",
      { markdown: "Run's.", position: { at: "end" } },
      RUN,
    );
    await runToolAsSuggestion(
      tab.editor,
      "insertBlocks",
      { markdown: "Carol's.", position: { at: "end" } },
      { authorId: "carol", authorName: "Carol" },
    );
    exchange(tab, bob);
    bobDecides(bob, "reject");
    exchange(tab, bob);

    const failure = { ok: false, code: "not-found", message: "no such block" };
    expect(tellSuggestionOutcomes(tab.doc, "run-1", failure)).toEqual(failure);
    expect(tellSuggestionOutcomes(tab.doc, "run-2", readResult)).toEqual(readResult);
    const told = tellSuggestionOutcomes(tab.doc, "run-1", readResult);
    expect(told).toEqual({
      ...readResult,
      decidedByPeople: [{ decision: "reject", by: "Bob", blockId: expect.any(String), text: "Run's." }],
    });
  });

  it(`hands at most ${MAX_OUTCOMES_PER_RESULT} to one call; the rest wait for the next`, async () => {
    const { tab, bob } = copies("Alpha.");
    await runToolAsSuggestion(
      tab.editor,
      "insertBlocks",
      { markdown: "Line.", position: { at: "end" } },
      RUN,
    );
    exchange(tab, bob);
    const [one] = listSuggestions(bob.editor);
    if (one === undefined) throw new Error("expected a pending suggestion");
    // As many decided suggestions of the run as one call cannot carry.
    const many = Array.from(
      { length: MAX_OUTCOMES_PER_RESULT + 3 },
      (_, i): PendingSuggestion => ({
        ...one,
        id: `s-${i}`,
      }),
    );
    recordSuggestionOutcomes(bob.doc, many, "reject", "Bob");
    exchange(tab, bob);
    const first = tellSuggestionOutcomes(tab.doc, "run-1", readResult) as { decidedByPeople: unknown[] };
    expect(first.decidedByPeople).toHaveLength(MAX_OUTCOMES_PER_RESULT);
    const second = tellSuggestionOutcomes(tab.doc, "run-1", readResult) as { decidedByPeople: unknown[] };
    expect(second.decidedByPeople).toHaveLength(3);
  });

  it("drops outcomes nobody took for a day (their run ended) when the next decision is noted", async () => {
    const { tab, bob } = copies("Alpha.");
    await runToolAsSuggestion(tab.editor, "insertBlocks", { markdown: "Old.", position: { at: "end" } }, RUN);
    await runToolAsSuggestion(
      tab.editor,
      "insertBlocks",
      { markdown: "New.", position: { at: "end" } },
      {
        ...RUN,
        runId: "run-2",
      },
    );
    exchange(tab, bob);
    const [old, recent] = listSuggestions(bob.editor);
    if (old === undefined || recent === undefined) throw new Error("expected two suggestions");
    const dayAndMore = Date.now() - 25 * 60 * 60_000;
    vi.spyOn(Date, "now").mockReturnValueOnce(dayAndMore);
    recordSuggestionOutcomes(bob.doc, [old], "reject", "Bob");
    recordSuggestionOutcomes(bob.doc, [recent], "accept", "Bob");
    expect(tellSuggestionOutcomes(bob.doc, "run-1", readResult)).toEqual(readResult);
    expect(tellSuggestionOutcomes(bob.doc, "run-2", readResult)).toMatchObject({
      decidedByPeople: [{ text: "New." }],
    });
  });
});
