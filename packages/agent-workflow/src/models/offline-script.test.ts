import { describe, expect, it } from "vitest";
import type { SeenToolResult } from "./offline-reading.ts";
import { nextOfflineTurn, offlineWrapUp } from "./offline-script.ts";

const read = (blocks: { id: string; type: string; markdown: string }[]) => ({
  toolName: "readDocument",
  output: { ok: true, blocks, totalBlocks: blocks.length, nextFromBlock: null },
});
const ok = (toolName: string) => ({ toolName, output: { ok: true } });

describe("offline model script", () => {
  it("appends a paragraph at the end, then reports", () => {
    expect(nextOfflineTurn('append "Hello there"', []).toolCall).toEqual({
      toolName: "insertBlocks",
      input: { markdown: "Hello there", position: { at: "end" } },
    });
    expect(nextOfflineTurn('append "x"', [ok("insertBlocks")]).toolCall).toBeUndefined();
  });

  it("says what people decided about its suggestions when a result told it, in its last words only", () => {
    const told = {
      toolName: "insertBlocks",
      output: {
        ok: true,
        blockIds: ["b2"],
        decidedByPeople: [
          { decision: "reject", by: "Bob", blockId: "b1", text: "Old idea." },
          { decision: "accept", by: "Eve", blockId: null, text: "Good one." },
        ],
      },
    };
    expect(nextOfflineTurn('append "x"', [told]).text).toBe(
      "Done: the paragraph is at the end. Bob rejected my suggestion “Old idea.”. Eve accepted my suggestion “Good one.”.",
    );
    // A turn that calls a tool says nothing of it yet; malformed entries are not read.
    expect(nextOfflineTurn('append "x" and accept it', [told]).text).not.toContain("Bob");
    const malformed = {
      toolName: "insertBlocks",
      output: { ok: true, blockIds: [], decidedByPeople: [{ by: 1 }] },
    };
    expect(nextOfflineTurn('append "x"', [malformed]).text).toBe("Done: the paragraph is at the end.");
  });

  it("suggests a paragraph, then decides its own suggestion on the block the insert returned", () => {
    const prompt = 'append "Maybe" and reject it';
    expect(nextOfflineTurn(prompt, []).toolCall).toEqual({
      toolName: "insertBlocks",
      input: { markdown: "Maybe", position: { at: "end" } },
    });
    const inserted = { toolName: "insertBlocks", output: { ok: true, blockIds: ["b1"] } };
    expect(nextOfflineTurn(prompt, [inserted]).toolCall).toEqual({
      toolName: "decideSuggestions",
      input: { decision: "reject", blockIds: ["b1"] },
    });
    expect(nextOfflineTurn(prompt, [inserted, ok("decideSuggestions")]).toolCall).toBeUndefined();
  });

  it("adds a level-2 heading", () => {
    expect(nextOfflineTurn('add a heading "Plan"', []).toolCall?.input).toEqual({
      markdown: "## Plan",
      position: { at: "end" },
    });
  });

  it("replaces every occurrence", () => {
    expect(nextOfflineTurn('replace "cat" with "dog"', []).toolCall).toEqual({
      toolName: "replaceText",
      input: { search: "cat", replace: "dog", occurrence: "all" },
    });
  });

  it("reads first, then deletes only the paragraphs that contain the text", () => {
    expect(nextOfflineTurn('delete paragraphs containing "old"', []).toolCall?.toolName).toBe("readDocument");
    const turn = nextOfflineTurn('delete paragraphs containing "old"', [
      read([
        { id: "a", type: "paragraph", markdown: "an old idea" },
        { id: "b", type: "heading-2", markdown: "## old heading" },
        { id: "c", type: "paragraph", markdown: "new" },
      ]),
    ]);
    expect(turn.toolCall).toEqual({ toolName: "deleteBlocks", input: { blockIds: ["a"] } });
  });

  it("pages through a long document before deleting, and deletes the matches of every page", () => {
    const prompt = 'delete paragraphs containing "old"';
    const page = (from: number, next: number | null) => ({
      toolName: "readDocument",
      output: {
        ok: true,
        blocks: [0, 1].map((i) => ({ id: `p${from + i}`, type: "paragraph", markdown: `old ${from + i}` })),
        totalBlocks: 6,
        nextFromBlock: next,
      },
    });
    expect(nextOfflineTurn(prompt, [page(0, 2)]).toolCall).toEqual({
      toolName: "readDocument",
      input: { fromBlock: 2 },
    });
    expect(nextOfflineTurn(prompt, [page(0, 2), page(2, 4)]).toolCall?.input).toEqual({ fromBlock: 4 });
    expect(nextOfflineTurn(prompt, [page(0, 2), page(2, 4), page(4, null)]).toolCall).toEqual({
      toolName: "deleteBlocks",
      input: { blockIds: ["p0", "p1", "p2", "p3", "p4", "p5"] },
    });
  });

  it("goes on counting after calls that were never run, and says what is left when the run ends", () => {
    const notRun = {
      toolName: "insertBlocks",
      output: { ok: false, code: "not-run", message: "time is up" },
    };
    const seen = [ok("insertBlocks"), ok("insertBlocks"), notRun];
    expect(nextOfflineTurn("count to 5", seen).toolCall?.input).toEqual({
      markdown: "3",
      position: { at: "end" },
    });
    expect(offlineWrapUp("count to 5", seen)).toBe("I added the numbers 1 to 2 of 5; 3 are left.");
  });

  it("counts with one insert per number and text between calls", () => {
    const seen = [ok("insertBlocks"), ok("insertBlocks")];
    const turn = nextOfflineTurn("count to 3", seen);
    expect(turn.text).toMatch(/3/);
    expect(turn.toolCall?.input).toEqual({ markdown: "3", position: { at: "end" } });
    expect(nextOfflineTurn("count to 3", [...seen, ok("insertBlocks")])).toEqual({ text: "Counted to 3." });
  });

  it("summarizes with the first sentence of each paragraph under a Summary heading", () => {
    const turn = nextOfflineTurn("summarize", [
      read([
        { id: "h", type: "heading-1", markdown: "# Title" },
        { id: "a", type: "paragraph", markdown: "First point. More detail." },
        { id: "b", type: "paragraph", markdown: "Second **point**! Trailing." },
      ]),
    ]);
    expect(turn.toolCall?.input).toEqual({
      markdown: "## Summary\n\nFirst point.\n\nSecond point!",
      position: { at: "end" },
    });
  });

  it("answers anything else with the word count and headings, changing nothing", () => {
    const turn = nextOfflineTurn("what is this?", [
      read([
        { id: "h", type: "heading-1", markdown: "# Title" },
        { id: "a", type: "paragraph", markdown: "three little words" },
      ]),
    ]);
    expect(turn.toolCall).toBeUndefined();
    expect(turn.text).toBe('The document has 4 words. Headings: "Title". I did not change anything.');
  });
});

describe("offline model benchmark prompt", () => {
  it("writes N words and calls no tool", () => {
    expect(nextOfflineTurn("write 5 words", [])).toEqual({ text: "w1 w2 w3 w4 w5" });
  });
});

describe("offline tidy up", () => {
  const blocks = [
    { id: "h", type: "heading-1", markdown: "# Project notes" },
    { id: "p", type: "paragraph", markdown: "We fixed teh bug." },
    { id: "l", type: "bullet-list", markdown: "- one\n- two" },
    { id: "t", type: "table", markdown: "| a | b |\n| --- | --- |\n| 1 | 2 |" },
  ];
  it("tours six editing tools over the blocks it read first", () => {
    const calls: { toolName: string; input: unknown }[] = [];
    const seen: SeenToolResult[] = [read(blocks)];
    for (;;) {
      const turn = nextOfflineTurn("tidy up", seen);
      if (!turn.toolCall) {
        expect(turn.text).toBe("Tidied up: 6 edits.");
        break;
      }
      calls.push(turn.toolCall);
      seen.push(ok(turn.toolCall.toolName));
    }
    expect(calls.map((c) => c.toolName)).toEqual([
      "setBlockType",
      "formatText",
      "replaceText",
      "updateTableCell",
      "moveBlock",
      "insertTable",
    ]);
    expect(calls[0]?.input).toEqual({ blockId: "p", type: "quote" });
    expect(calls[1]?.input).toEqual({ blockId: "h", text: "Project", add: ["bold"] });
  });
});
