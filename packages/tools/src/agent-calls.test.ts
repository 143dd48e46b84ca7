import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { findCall, nextClock, recordCall, removeSecondExecutions } from "./agent-calls.ts";
import { runEditorTool } from "./editor-tools.ts";
import { exportMarkdown } from "./markdown.ts";
import { blockIds } from "./tool-cases.ts";
import {
  type BoundDocumentEditor,
  bindDocumentEditor,
  flush,
  yjsUpdateFromMarkdown,
} from "./yjs-document.ts";

// A call run by two executors (a tab offline, then the server once the tab's lease lapsed): the
// live document keeps the first execution's edit and deletes what the second one inserted when its
// update arrives; the writer's own typing in that update stays.

const KEY = "run-1:call-1";
const CALL = { tool: "insertBlocks", input: { markdown: "Inserted once.", position: { at: "end" } } };

/** Runs the call on `copy` as an executor does: the edit, then its record, in the same copy. */
async function execute(copy: BoundDocumentEditor): Promise<void> {
  const from = nextClock(copy.doc);
  const output = await runEditorTool(copy.editor, CALL.tool, CALL.input);
  recordCall(copy.doc, KEY, output, copy, from);
}

/** The document's blocks, in order of their text (concurrent insertions order by Yjs client id). */
function blocksOf(copy: BoundDocumentEditor): string[] {
  return exportMarkdown(copy.editor).split("\n\n").sort();
}

function apply(live: BoundDocumentEditor, update: Uint8Array): void {
  Y.applyUpdate(live.doc, update, "socket");
  flush(live.editor);
}

describe("a call executed twice", () => {
  it("keeps the first execution's edit and deletes what the second inserted; the writer's typing stays", async () => {
    const seed = yjsUpdateFromMarkdown("Start.");
    const live = bindDocumentEditor(seed);
    const tab = bindDocumentEditor(seed);
    const server = bindDocumentEditor(seed);
    // The tab runs the call offline, and its writer goes on typing.
    await execute(tab);
    const [first] = blockIds(tab.editor);
    await runEditorTool(tab.editor, "replaceBlock", { blockId: first, markdown: "Start, typed offline." });
    flush(tab.editor);
    // Meanwhile the server ran the same call on the live document.
    await execute(server);
    apply(live, Y.encodeStateAsUpdate(server.doc));
    expect(exportMarkdown(live.editor)).toBe("Start.\n\nInserted once.");

    // The tab comes back: its update holds its execution and the typing.
    const fromTab = Y.encodeStateAsUpdate(tab.doc, Y.encodeStateVector(live.doc));
    apply(live, fromTab);
    expect(blocksOf(live)).toEqual(["Inserted once.", "Inserted once.", "Start, typed offline."]);
    expect(removeSecondExecutions(live.doc, fromTab, "server")).toBeGreaterThan(0);
    flush(live.editor);
    expect(blocksOf(live)).toEqual(["Inserted once.", "Start, typed offline."]);
    expect(findCall(live.doc, KEY)?.output).toMatchObject({ ok: true });

    // Every other copy converges on the same document once it has the deletion.
    apply(tab, Y.encodeStateAsUpdate(live.doc, Y.encodeStateVector(tab.doc)));
    expect(exportMarkdown(tab.editor)).toBe(exportMarkdown(live.editor));
    expect(blocksOf(tab)).toEqual(["Inserted once.", "Start, typed offline."]);
  });

  it("deletes nothing for a call executed once, or a record that arrives again", async () => {
    const seed = yjsUpdateFromMarkdown("Start.");
    const live = bindDocumentEditor(seed);
    const tab = bindDocumentEditor(seed);
    await execute(tab);
    const fromTab = Y.encodeStateAsUpdate(tab.doc, Y.encodeStateVector(live.doc));
    apply(live, fromTab);
    expect(removeSecondExecutions(live.doc, fromTab, "server")).toBe(0);
    apply(live, fromTab);
    expect(removeSecondExecutions(live.doc, fromTab, "server")).toBe(0);
    expect(exportMarkdown(live.editor)).toBe("Start.\n\nInserted once.");
  });

  it("finds the second execution when its output entry lost to the first one's on the way", async () => {
    const seed = yjsUpdateFromMarkdown("Start.");
    const live = bindDocumentEditor(seed);
    const tab = bindDocumentEditor(seed);
    const server = bindDocumentEditor(seed);
    await execute(tab);
    await execute(server);
    const fromServer = Y.encodeStateAsUpdate(server.doc, Y.encodeStateVector(live.doc));
    apply(live, fromServer);
    // The tab hears of the server's record first (its own output entry may lose and be deleted
    // there), then sends what it did.
    apply(tab, fromServer);
    const fromTab = Y.encodeStateAsUpdate(tab.doc, Y.encodeStateVector(live.doc));
    apply(live, fromTab);
    expect(removeSecondExecutions(live.doc, fromTab, "server")).toBeGreaterThan(0);
    flush(live.editor);
    expect(blocksOf(live)).toEqual(["Inserted once.", "Start."]);
  });
});
