import {
  $decideSuggestions,
  bindDocumentEditor,
  bindMirroredEditor,
  exportMarkdown,
  fromRunEdits,
  listSuggestions,
  mergeRunEdits,
  runEditorTool,
  runToolAsSuggestion,
  toRunEdits,
  yjsUpdateFromMarkdown,
} from "@coauthor/tools";
import { type RunEdits, runEditsSchema } from "@coauthor/types";
import { describe, expect, it } from "vitest";
import { revertRunChanges } from "./revert-run";
import { recordAgentEdits } from "./run-recorder";

const flush = (editor: ReturnType<typeof bindDocumentEditor>["editor"]) =>
  editor.update(() => undefined, { discrete: true });

describe("stored run edits", () => {
  it("a run recorded in two parts (a reload in the middle) and stored reverts as a whole", async () => {
    const page = bindDocumentEditor(yjsUpdateFromMarkdown("Keep.\n\nThe cat sat.\n\ndrop me"));
    const firstTab = bindMirroredEditor(page.doc, "agent");
    const first = recordAgentEdits(firstTab.editor);
    await runEditorTool(firstTab.editor, "insertBlocks", { markdown: "One.", position: { at: "end" } });
    await runEditorTool(firstTab.editor, "replaceText", { search: "cat", replace: "dog" });
    const earlier = first.stop();
    firstTab.dispose();

    // After the reload: a new mirror and a new recorder carry on with the same run.
    const secondTab = bindMirroredEditor(page.doc, "agent");
    const second = recordAgentEdits(secondTab.editor);
    await runEditorTool(secondTab.editor, "replaceText", { search: "dog", replace: "bird" });
    await runEditorTool(secondTab.editor, "insertBlocks", { markdown: "Two.", position: { at: "end" } });
    const dropId = secondTab.editor.getEditorState().toJSON().root.children[2] as {
      $?: { blockId?: string };
    };
    await runEditorTool(secondTab.editor, "deleteBlocks", { blockIds: [dropId.$?.blockId ?? ""] });
    const later = second.stop();
    if (earlier === null || later === null) throw new Error("nothing recorded");
    flush(page.editor);
    expect(exportMarkdown(page.editor)).toBe("Keep.\n\nThe bird sat.\n\nOne.\n\nTwo.");

    // Stored as JSON and read back, as the server does.
    const stored = runEditsSchema.parse(
      JSON.parse(JSON.stringify(mergeRunEdits(toRunEdits(earlier), toRunEdits(later)))),
    );
    expect(stored.inserted).toHaveLength(2);
    expect(stored.changed).toHaveLength(1);
    expect(stored.deleted).toHaveLength(1);
    const nextDay = bindMirroredEditor(page.doc, "agent");

    const report = revertRunChanges(nextDay.editor, fromRunEdits(stored));
    flush(page.editor);
    expect(exportMarkdown(page.editor)).toBe("Keep.\n\nThe cat sat.\n\ndrop me");
    expect(report.keptByWriter).toBe(0);
  });
});

describe("a run stored in parts by its executors", () => {
  it("a tab's parts, taken one after another with the server's calls between them, revert as a whole", async () => {
    const page = bindDocumentEditor(yjsUpdateFromMarkdown("Keep.\n\nThe cat sat."));
    const tab = bindMirroredEditor(page.doc, "agent");
    const recorder = recordAgentEdits(tab.editor);
    const stored: RunEdits[] = [];
    const take = () => {
      const part = recorder.takeChanges();
      if (part !== null) stored.push(toRunEdits(part));
    };
    await runEditorTool(tab.editor, "insertBlocks", { markdown: "One.", position: { at: "end" } });
    take();
    expect(recorder.takeChanges()).toBeNull();

    // The tab is away: the server runs two calls on its own copy and stores them as one part.
    const server = bindMirroredEditor(page.doc, "server");
    const serverPart = recordAgentEdits(server.editor);
    await runEditorTool(server.editor, "replaceText", { search: "cat", replace: "dog" });
    await runEditorTool(server.editor, "insertBlocks", { markdown: "Two.", position: { at: "end" } });
    const ran = serverPart.stop();
    if (ran === null) throw new Error("the server's part recorded nothing");
    stored.push(toRunEdits(ran));
    flush(server.editor);
    server.dispose();
    flush(page.editor);
    flush(tab.editor);

    // The tab is back and takes the run's next call.
    await runEditorTool(tab.editor, "replaceText", { search: "dog", replace: "bird" });
    take();
    flush(page.editor);
    expect(exportMarkdown(page.editor)).toBe("Keep.\n\nThe bird sat.\n\nOne.\n\nTwo.");
    // The tab's second part is only its own call: the server's insert is not in it.
    expect(stored[2]?.inserted).toEqual([]);

    const whole = stored.reduce((earlier, later) => mergeRunEdits(earlier, later));
    const report = revertRunChanges(bindMirroredEditor(page.doc, "agent").editor, fromRunEdits(whole));
    flush(page.editor);
    expect(exportMarkdown(page.editor)).toBe("Keep.\n\nThe cat sat.");
    expect(report.keptByWriter).toBe(0);
  });
});

describe("recordAgentEdits", () => {
  it("records every edit of a run made on the agent's mirror, and nothing a co-editor typed", async () => {
    const page = bindDocumentEditor(yjsUpdateFromMarkdown("Writer's line."));
    const agent = bindMirroredEditor(page.doc, "agent");
    const recorder = recordAgentEdits(agent.editor);
    await runEditorTool(agent.editor, "insertBlocks", { markdown: "1", position: { at: "end" } });
    // A co-editor's paragraph arrives between the agent's edits.
    await runEditorTool(page.editor, "insertBlocks", { markdown: "Theirs.", position: { at: "end" } });
    flush(agent.editor);
    await runEditorTool(agent.editor, "insertBlocks", { markdown: "2", position: { at: "end" } });
    const changes = recorder.stop();
    expect(changes?.inserted).toHaveLength(2);
    expect(changes?.deleted).toEqual([]);
    if (changes) revertRunChanges(agent.editor, changes);
    flush(page.editor);
    expect(exportMarkdown(page.editor)).toBe("Writer's line.\n\nTheirs.");
  });
});

describe("Undo run of a run in Suggest mode", () => {
  const author = { authorId: "alice", authorName: "Coauthor for Alice", runId: "run-1" };

  async function suggestRun() {
    const page = bindDocumentEditor(yjsUpdateFromMarkdown("Keep.\n\nThe cat sat.\n\nLast."));
    const agent = bindMirroredEditor(page.doc, "agent");
    const recorder = recordAgentEdits(agent.editor);
    await runToolAsSuggestion(agent.editor, "replaceText", { search: "cat", replace: "dog" }, author);
    await runToolAsSuggestion(
      agent.editor,
      "insertBlocks",
      { markdown: "New.", position: { at: "end" } },
      author,
    );
    const changes = recorder.stop();
    if (changes === null) throw new Error("nothing recorded");
    flush(page.editor);
    return { page, agent, changes };
  }

  it("takes back its pending suggestions", async () => {
    const { page, agent, changes } = await suggestRun();
    expect(listSuggestions(page.editor)).toHaveLength(2);
    revertRunChanges(agent.editor, changes);
    flush(page.editor);
    expect(exportMarkdown(page.editor)).toBe("Keep.\n\nThe cat sat.\n\nLast.");
    expect(listSuggestions(page.editor)).toEqual([]);
  });

  it("reverts the suggestions accepted since", async () => {
    const { page, agent, changes } = await suggestRun();
    const ids = new Set(listSuggestions(page.editor).map((suggestion) => suggestion.id));
    page.editor.update(() => void $decideSuggestions(ids, "accept"), { discrete: true });
    flush(page.editor);
    expect(exportMarkdown(page.editor)).toBe("Keep.\n\nThe dog sat.\n\nLast.\n\nNew.");
    flush(agent.editor);
    revertRunChanges(agent.editor, changes);
    flush(page.editor);
    expect(exportMarkdown(page.editor)).toBe("Keep.\n\nThe cat sat.\n\nLast.");
  });
});
