import { describe, expect, it } from "vitest";
import { runEditorTool } from "./editor-tools.ts";
import { exportMarkdown } from "./markdown.ts";
import { runToolAsSuggestion } from "./suggest-tool-calls.ts";
import { $decideSuggestions, listSuggestions, type SuggestionAuthor } from "./suggestions.ts";
import { exchange } from "./synced-copies.ts";
import { blockIds } from "./tool-cases.ts";
import {
  type BoundDocumentEditor,
  bindDocumentEditor,
  flush,
  yjsUpdateFromMarkdown,
} from "./yjs-document.ts";

// Every kind of change a write tool makes, landed as suggestions in one copy of a document synced
// with another: accepting gives what the direct edit gives, rejecting gives the document as it was,
// in both copies, with the blocks' ids.

const DOCUMENT = "# Plan\n\nFirst part with **bold**.\n\n- one\n- two\n\nLast part.";
const AGENT: SuggestionAuthor = { authorId: "alice", authorName: "Coauthor for Alice", runId: "run-1" };

type Case = { name: string; input: (ids: string[]) => { tool: string; input: unknown } };

const CASES: Case[] = [
  {
    name: "text inserted (insertBlocks)",
    input: () => ({
      tool: "insertBlocks",
      input: { markdown: "New one.\n\nNew two.", position: { at: "end" } },
    }),
  },
  {
    name: "block inserted in the middle",
    input: (ids) => ({
      tool: "insertBlocks",
      input: { markdown: "Between.", position: { at: "after", blockId: ids[1] } },
    }),
  },
  {
    name: "blocks deleted",
    input: (ids) => ({ tool: "deleteBlocks", input: { blockIds: [ids[1], ids[3]] } }),
  },
  {
    name: "block replaced",
    input: (ids) => ({
      tool: "replaceBlock",
      input: { blockId: ids[1], markdown: "Rewritten part.", reason: "Shorter." },
    }),
  },
  {
    name: "text replaced across blocks",
    input: () => ({ tool: "replaceText", input: { search: "part", replace: "section" } }),
  },
  {
    name: "formatting changed",
    input: (ids) => ({ tool: "formatText", input: { blockId: ids[3], text: "Last", add: ["italic"] } }),
  },
  {
    name: "block type changed",
    input: (ids) => ({ tool: "setBlockType", input: { blockId: ids[1], type: "quote" } }),
  },
  {
    name: "block moved",
    input: (ids) => ({ tool: "moveBlock", input: { blockId: ids[3], position: { at: "start" } } }),
  },
  {
    // Lexical merges two adjacent lists of one type: the old list and its replacement must not.
    name: "list item changed",
    input: () => ({ tool: "replaceText", input: { search: "two", replace: "deux" } }),
  },
  {
    name: "list inserted right after a list of the same type",
    input: (ids) => ({
      tool: "insertBlocks",
      input: { markdown: "- three", position: { at: "after", blockId: ids[2] } },
    }),
  },
  {
    name: "list deleted",
    input: (ids) => ({ tool: "deleteBlocks", input: { blockIds: [ids[2]] } }),
  },
  {
    name: "table inserted",
    input: () => ({
      tool: "insertTable",
      input: {
        rows: [
          ["A", "B"],
          ["1", "2"],
        ],
        position: { at: "end" },
      },
    }),
  },
];

function decideAll(copy: BoundDocumentEditor, decision: "accept" | "reject"): void {
  const ids = new Set(listSuggestions(copy.editor).map((suggestion) => suggestion.id));
  copy.editor.update(() => void $decideSuggestions(ids, decision), { discrete: true });
  flush(copy.editor);
}

describe("suggestions: every kind × accept / reject, in two synced copies", () => {
  for (const { name, input } of CASES) {
    for (const decision of ["accept", "reject"] as const) {
      it(`${name}, ${decision}ed by a co-editor`, async () => {
        const seed = yjsUpdateFromMarkdown(DOCUMENT);
        const agent = bindDocumentEditor(seed);
        const coEditor = bindDocumentEditor(seed);
        const ids = blockIds(agent.editor);
        const call = input(ids);
        const direct = bindDocumentEditor(seed);
        const directResult = await runEditorTool(direct.editor, call.tool, call.input);
        expect(directResult).toMatchObject({ ok: true });

        const result = await runToolAsSuggestion(agent.editor, call.tool, call.input, AGENT);
        expect(result).toMatchObject({ ok: true });
        exchange(agent, coEditor);
        const pending = listSuggestions(coEditor.editor);
        expect(pending.length).toBeGreaterThan(0);
        expect(pending[0]).toMatchObject({ authorName: "Coauthor for Alice", runId: "run-1" });

        decideAll(coEditor, decision);
        exchange(agent, coEditor);
        const expected = decision === "accept" ? exportMarkdown(direct.editor) : DOCUMENT;
        expect(exportMarkdown(coEditor.editor)).toBe(expected);
        expect(exportMarkdown(agent.editor)).toBe(expected);
        expect(listSuggestions(agent.editor)).toEqual([]);
        const finalIds = blockIds(coEditor.editor);
        expect(new Set(finalIds).size).toBe(finalIds.length);
        // The blocks that were there keep their ids: all of them on reject; on accept, those the
        // direct edit kept.
        const kept = decision === "accept" ? blockIds(direct.editor).filter((id) => ids.includes(id)) : ids;
        expect(finalIds.filter((id) => ids.includes(id))).toEqual(kept);
        expect(blockIds(agent.editor)).toEqual(finalIds);
      });
    }
  }

  it("leaves a list the call did not touch as it is: no suggestion, and rejecting gives it back", async () => {
    const agent = bindDocumentEditor(yjsUpdateFromMarkdown("- first item\n\n- second item\n\nClosing line."));
    const loaded = exportMarkdown(agent.editor);
    await runToolAsSuggestion(agent.editor, "replaceText", { search: "Closing", replace: "Final" }, AGENT);
    expect(listSuggestions(agent.editor)).toEqual([
      expect.objectContaining({ deleted: "Closing line.", inserted: "Final line." }),
    ]);
    decideAll(agent, "reject");
    expect(exportMarkdown(agent.editor)).toBe(loaded);
  });

  it("keeps a list proposed next to a list of its type apart in every copy until decided", async () => {
    const seed = yjsUpdateFromMarkdown(DOCUMENT);
    const agent = bindDocumentEditor(seed);
    const bob = bindDocumentEditor(seed);
    await runToolAsSuggestion(agent.editor, "replaceText", { search: "two", replace: "deux" }, AGENT);
    exchange(agent, bob);
    for (const copy of [agent, bob]) {
      expect(listSuggestions(copy.editor)).toEqual([
        expect.objectContaining({ deleted: "one\n\ntwo", inserted: "one\n\ndeux" }),
      ]);
    }
    decideAll(bob, "accept");
    exchange(agent, bob);
    expect(exportMarkdown(agent.editor)).toBe(DOCUMENT.replace("- two", "- deux"));
  });

  it("puts each replacement right after the block it replaces", async () => {
    const agent = bindDocumentEditor(yjsUpdateFromMarkdown("Alpha line.\n\nBeta line.\n\nGamma line."));
    await runToolAsSuggestion(agent.editor, "replaceText", { search: "line", replace: "row" }, AGENT);
    expect(exportMarkdown(agent.editor)).toBe(
      "Alpha line.\n\nAlpha row.\n\nBeta line.\n\nBeta row.\n\nGamma line.\n\nGamma row.",
    );
    expect(listSuggestions(agent.editor).map((suggestion) => suggestion.inserted)).toEqual([
      "Alpha row.",
      "Beta row.",
      "Gamma row.",
    ]);
  });

  it("a run in Suggest mode reads the document as if its suggestions were accepted, and builds on them", async () => {
    const agent = bindDocumentEditor(yjsUpdateFromMarkdown(DOCUMENT));
    const ids = blockIds(agent.editor);
    await runToolAsSuggestion(
      agent.editor,
      "replaceBlock",
      { blockId: ids[1], markdown: "Rewritten." },
      AGENT,
    );
    const read = await runToolAsSuggestion(agent.editor, "readDocument", {}, AGENT);
    expect(read).toMatchObject({ ok: true, totalBlocks: 4 });
    expect((read as { blocks: Array<{ id: string; markdown: string }> }).blocks[1]).toEqual(
      expect.objectContaining({ id: ids[1], markdown: "Rewritten." }),
    );
    const found = await runToolAsSuggestion(agent.editor, "findText", { query: "First part" }, AGENT);
    expect(found).toMatchObject({ ok: true, matches: [] });
    // A second change to the block it already rewrote: still one suggestion for that block.
    await runToolAsSuggestion(agent.editor, "replaceText", { search: "Rewritten", replace: "Redone" }, AGENT);
    expect(listSuggestions(agent.editor)).toEqual([
      expect.objectContaining({ deleted: "First part with bold.", inserted: "Redone." }),
    ]);
  });

  it("gives the reason and the text each suggestion adds and removes", async () => {
    const agent = bindDocumentEditor(yjsUpdateFromMarkdown(DOCUMENT));
    const ids = blockIds(agent.editor);
    await runToolAsSuggestion(
      agent.editor,
      "replaceBlock",
      { blockId: ids[1], markdown: "Rewritten.", reason: "Shorter." },
      AGENT,
    );
    expect(listSuggestions(agent.editor)).toEqual([
      expect.objectContaining({
        reason: "Shorter.",
        deleted: "First part with bold.",
        inserted: "Rewritten.",
      }),
    ]);
    // The model addresses the new block by the old id.
    expect(blockIds(agent.editor)).toContain(ids[1]);
  });

  it("the same author changing their own pending insertion extends it (one suggestion, nothing to delete)", async () => {
    const agent = bindDocumentEditor(yjsUpdateFromMarkdown(DOCUMENT));
    const inserted = await runToolAsSuggestion(
      agent.editor,
      "insertBlocks",
      { markdown: "Draft.", position: { at: "end" } },
      AGENT,
    );
    const [id] = (inserted as { blockIds: string[] }).blockIds;
    await runToolAsSuggestion(
      agent.editor,
      "replaceBlock",
      { blockId: id, markdown: "Better draft." },
      AGENT,
    );
    const pending = listSuggestions(agent.editor);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ inserted: "Better draft.", deleted: "" });
  });

  it("two people accepting the same suggestion at once converge on it accepted once", async () => {
    const seed = yjsUpdateFromMarkdown(DOCUMENT);
    const agent = bindDocumentEditor(seed);
    const bob = bindDocumentEditor(seed);
    const direct = bindDocumentEditor(seed);
    const ids = blockIds(agent.editor);
    const call = { blockId: ids[1], markdown: "Rewritten." };
    await runEditorTool(direct.editor, "replaceBlock", call);
    await runToolAsSuggestion(agent.editor, "replaceBlock", call, AGENT);
    exchange(agent, bob);
    decideAll(agent, "accept");
    decideAll(bob, "accept");
    exchange(agent, bob);
    expect(exportMarkdown(agent.editor)).toBe(exportMarkdown(direct.editor));
    expect(exportMarkdown(bob.editor)).toBe(exportMarkdown(direct.editor));
    expect(listSuggestions(bob.editor)).toEqual([]);
  });
});

describe("decideSuggestions: a run decides its own suggestions", () => {
  const OTHER_RUN: SuggestionAuthor = { authorId: "alice", authorName: "Coauthor for Alice", runId: "run-2" };

  it("accepts one by its block and rejects the rest, never touching another run's, in every copy", async () => {
    const seed = yjsUpdateFromMarkdown(DOCUMENT);
    const agent = bindDocumentEditor(seed);
    const coEditor = bindDocumentEditor(seed);
    const ids = blockIds(agent.editor);
    const first = await runToolAsSuggestion(
      agent.editor,
      "replaceBlock",
      { blockId: ids[1], markdown: "Rewritten part." },
      AGENT,
    );
    await runToolAsSuggestion(
      agent.editor,
      "insertBlocks",
      { markdown: "Appended.", position: { at: "end" } },
      AGENT,
    );
    await runToolAsSuggestion(
      agent.editor,
      "insertBlocks",
      { markdown: "Other run.", position: { at: "start" } },
      OTHER_RUN,
    );
    expect(listSuggestions(agent.editor)).toHaveLength(3);

    const newBlock = (first as { blockIds: string[] }).blockIds;
    const accepted = await runToolAsSuggestion(
      agent.editor,
      "decideSuggestions",
      { decision: "accept", blockIds: newBlock },
      AGENT,
    );
    expect(accepted).toEqual({ ok: true, decided: 1, blockIds: newBlock });
    const rejected = await runToolAsSuggestion(
      agent.editor,
      "decideSuggestions",
      { decision: "reject" },
      AGENT,
    );
    expect(rejected).toMatchObject({ ok: true, decided: 1, blockIds: [] });
    exchange(agent, coEditor);
    for (const copy of [agent, coEditor]) {
      expect(listSuggestions(copy.editor)).toMatchObject([{ runId: "run-2", inserted: "Other run." }]);
      expect(exportMarkdown(copy.editor)).toBe(
        "Other run.\n\n# Plan\n\nRewritten part.\n\n- one\n- two\n\nLast part.",
      );
    }
  });

  it("fails, changing nothing, on a block without a pending suggestion of this run, and outside Suggest mode", async () => {
    const agent = bindDocumentEditor(yjsUpdateFromMarkdown(DOCUMENT));
    const ids = blockIds(agent.editor);
    await runToolAsSuggestion(
      agent.editor,
      "insertBlocks",
      { markdown: "New.", position: { at: "end" } },
      AGENT,
    );
    const before = exportMarkdown(agent.editor);
    const wrong = await runToolAsSuggestion(
      agent.editor,
      "decideSuggestions",
      { decision: "accept", blockIds: [ids[0]] },
      AGENT,
    );
    expect(wrong).toMatchObject({ ok: false, code: "not-found" });
    const direct = await runEditorTool(agent.editor, "decideSuggestions", { decision: "accept" });
    expect(direct).toMatchObject({ ok: false, code: "not-suggesting" });
    const bad = await runToolAsSuggestion(agent.editor, "decideSuggestions", { decision: "maybe" }, AGENT);
    expect(bad).toMatchObject({ ok: false, code: "invalid-input" });
    expect(exportMarkdown(agent.editor)).toBe(before);
    expect(listSuggestions(agent.editor)).toHaveLength(1);
  });
});
