import { createDocumentEditor, exportMarkdown } from "@coauthor/tools";
import { $getRoot, $getSelection, $isRangeSelection, type LexicalEditor } from "lexical";
import { describe, expect, it } from "vitest";
import { $insertMarkdown } from "./markdown-paste-plugin";

/** Pastes `text` as Markdown at the end of the text reading `caretText`; what $insertMarkdown answered. */
function paste(editor: LexicalEditor, caretText: string, text: string): boolean {
  let inserted = false;
  editor.update(
    () => {
      const node = $getRoot()
        .getAllTextNodes()
        .find((candidate) => candidate.getTextContent() === caretText);
      if (!node) throw new Error(`no text "${caretText}"`);
      node.select(caretText.length, caretText.length);
      const selection = $getSelection();
      if (!$isRangeSelection(selection)) throw new Error("no range selection");
      inserted = $insertMarkdown(text, selection);
    },
    { discrete: true },
  );
  return inserted;
}

const staircase = (depth: number) =>
  Array.from({ length: depth }, (_, level) => `${"  ".repeat(level)}- item ${level}`).join("\n");

describe("a Markdown paste", () => {
  it("inserts what the Markdown means", () => {
    const editor = createDocumentEditor({ markdown: "Before." });
    expect(paste(editor, "Before.", "## Heading\n\n- a\n- b")).toBe(true);
    expect(exportMarkdown(editor)).toContain("- a\n- b");
  });

  it("is left to the plain-text paste, inserting nothing, when the content rule refuses it", () => {
    const editor = createDocumentEditor({ markdown: "Before." });
    expect(paste(editor, "Before.", `${"> ".repeat(2_000)}x`)).toBe(false);
    expect(paste(editor, "Before.", `${"*a ".repeat(5_000)}x${" b*".repeat(5_000)}`)).toBe(false);
    expect(exportMarkdown(editor)).toBe("Before.");
  });

  it("is measured where it lands: a list pasted deep in a list may not nest past the rule", () => {
    const editor = createDocumentEditor({ markdown: staircase(31) });
    const before = exportMarkdown(editor);
    expect(paste(editor, "item 30", "- a\n  - b\n    - c")).toBe(false);
    expect(exportMarkdown(editor)).toBe(before);
    // The same list at the top level is fine.
    const shallow = createDocumentEditor({ markdown: "Before." });
    expect(paste(shallow, "Before.", "- a\n  - b\n    - c")).toBe(true);
  });
});
