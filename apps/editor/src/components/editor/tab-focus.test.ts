import { createDocumentEditor } from "@coauthor/tools";
import { $getRoot, $isTextNode, KEY_TAB_COMMAND, type LexicalEditor } from "lexical";
import { describe, expect, it, vi } from "vitest";
import { $tabIndentsAtSelection, registerTabFocus } from "./tab-focus";

const MARKDOWN = [
  "# A heading",
  "A paragraph.",
  "> A quote.",
  "- A list item",
  "```\nSome code\n```",
  "| Cell |\n| --- |\n| Body cell |",
].join("\n\n");

/** Puts the caret at the start of the text node that reads `text`. */
function caretIn(editor: LexicalEditor, text: string): void {
  editor.update(
    () => {
      const node = $getRoot()
        .getAllTextNodes()
        .find((candidate) => $isTextNode(candidate) && candidate.getTextContent() === text);
      if (!node) throw new Error(`no text "${text}" in the document`);
      node.select(0, 0);
    },
    { discrete: true },
  );
}

/** A Tab keydown as Lexical passes it to KEY_TAB_COMMAND (only what the handlers read). */
function tabKey() {
  const event = { key: "Tab", shiftKey: false, preventDefault: vi.fn() };
  return { event, keyboardEvent: event as unknown as KeyboardEvent };
}

describe("Tab in the document", () => {
  const cases: { where: string; text: string; indents: boolean }[] = [
    { where: "a heading", text: "A heading", indents: false },
    { where: "a paragraph", text: "A paragraph.", indents: false },
    { where: "a quote", text: "A quote.", indents: false },
    { where: "a list item", text: "A list item", indents: true },
    { where: "a code block", text: "Some code", indents: true },
    { where: "a table cell", text: "Body cell", indents: true },
  ];

  for (const { where, text, indents } of cases) {
    it(`${indents ? "indents" : "leaves the editor"} in ${where}`, () => {
      const editor = createDocumentEditor({ markdown: MARKDOWN });
      caretIn(editor, text);
      expect(editor.getEditorState().read(() => $tabIndentsAtSelection())).toBe(indents);
    });
  }

  it("claims Tab outside lists, code and tables without preventing the browser's focus move", () => {
    const editor = createDocumentEditor({ markdown: MARKDOWN });
    const unregister = registerTabFocus(editor);
    caretIn(editor, "A paragraph.");
    const { event, keyboardEvent } = tabKey();
    // Claimed: the indentation handler below it never runs.
    expect(editor.dispatchCommand(KEY_TAB_COMMAND, keyboardEvent)).toBe(true);
    expect(event.preventDefault).not.toHaveBeenCalled();
    unregister();
  });

  it("leaves Tab in a list item to the indentation handler", () => {
    const editor = createDocumentEditor({ markdown: MARKDOWN });
    const unregister = registerTabFocus(editor);
    caretIn(editor, "A list item");
    expect(editor.dispatchCommand(KEY_TAB_COMMAND, tabKey().keyboardEvent)).toBe(false);
    unregister();
  });
});
