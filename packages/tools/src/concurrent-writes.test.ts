import { $createTextNode, $getRoot, $isParagraphNode } from "lexical";
import { describe, expect, it } from "vitest";
import { runEditorTool } from "./editor-tools.ts";
import { exportMarkdown } from "./markdown.ts";
import { exchange } from "./synced-copies.ts";
import { type BoundDocumentEditor, bindDocumentEditor, yjsUpdateFromMarkdown } from "./yjs-document.ts";

// Two copies of one document whose updates are held back from each other, then exchanged: a
// writer's keystrokes and an agent's edit made at the same moment, neither having seen the other.

/** The writer types `text` at the end of the document's first paragraph (one update, as a keystroke batch). */
function typeIntoFirstParagraph(copy: BoundDocumentEditor, text: string): void {
  copy.editor.update(
    () => {
      const first = $getRoot().getFirstChild();
      if (!$isParagraphNode(first)) throw new Error("the document does not start with a paragraph");
      first.append($createTextNode(text));
    },
    { discrete: true },
  );
}

describe("an agent writing into a blank document while a co-editor types into it", () => {
  for (const at of ["start", "end"] as const) {
    it(`keeps the co-editor's words (insertBlocks at ${at})`, async () => {
      const seed = yjsUpdateFromMarkdown("");
      const writer = bindDocumentEditor(seed);
      const agent = bindDocumentEditor(seed);
      typeIntoFirstParagraph(writer, "Hello draft world");
      const result = await runEditorTool(agent.editor, "insertBlocks", {
        markdown: "From the agent\n\nSecond line",
        position: { at },
      });
      expect(result).toMatchObject({ ok: true });
      exchange(writer, agent);
      // Both wrote into the one placeholder paragraph: their words share it, none is lost.
      const markdown = exportMarkdown(writer.editor);
      expect(markdown).toContain("Hello draft world");
      expect(markdown).toContain("From the agent");
      expect(markdown.endsWith("\n\nSecond line")).toBe(true);
      expect(exportMarkdown(agent.editor)).toBe(markdown);
    });
  }
});
