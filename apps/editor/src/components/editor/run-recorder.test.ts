import {
  bindDocumentEditor,
  bindMirroredEditor,
  exportMarkdown,
  runEditorTool,
  yjsUpdateFromMarkdown,
} from "@coauthor/tools";
import { describe, expect, it } from "vitest";
import { revertRunChanges } from "./revert-run";
import { recordAgentEdits } from "./run-recorder";

const flush = (editor: ReturnType<typeof bindDocumentEditor>["editor"]) =>
  editor.update(() => undefined, { discrete: true });

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
