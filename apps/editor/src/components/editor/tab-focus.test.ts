import { createDocumentEditor } from "@coauthor/tools";
import { $isListItemNode } from "@lexical/list";
import { registerTabIndentation } from "@lexical/react/LexicalTabIndentationPlugin";
import { $getRoot, $isTextNode, KEY_TAB_COMMAND, type LexicalEditor } from "lexical";
import { describe, expect, it, vi } from "vitest";
import { $tabIndentPlaceAtSelection, registerTabFocus, type TabIndentPlace } from "./tab-focus";

const MARKDOWN = [
  "# A heading",
  "A paragraph.",
  "> A quote.",
  "- A list item\n- Second item",
  "```\nSome code\n```",
  "| Cell |\n| --- |\n| Body cell |",
].join("\n\n");

/** Puts the caret in the text node that reads `text`, at `offset`. */
function caretIn(editor: LexicalEditor, text: string, offset = 0): void {
  editor.update(
    () => {
      const node = $getRoot()
        .getAllTextNodes()
        .find((candidate) => $isTextNode(candidate) && candidate.getTextContent() === text);
      if (!node) throw new Error(`no text "${text}" in the document`);
      node.select(offset, offset);
    },
    { discrete: true },
  );
}

/** A Tab keydown as Lexical passes it to KEY_TAB_COMMAND (only what the handlers read). */
function tabKey() {
  const event = { key: "Tab", shiftKey: false, preventDefault: vi.fn() };
  return { event, keyboardEvent: event as unknown as KeyboardEvent };
}

/** Presses Tab in `editor` and commits what it did (command updates are otherwise committed later). */
function pressTab(editor: LexicalEditor, keyboardEvent: KeyboardEvent): boolean {
  let handled = false;
  editor.update(
    () => {
      handled = editor.dispatchCommand(KEY_TAB_COMMAND, keyboardEvent);
    },
    { discrete: true },
  );
  return handled;
}

/** The document with Tab handled as in the app: focus first, the indentation handler below it. */
function documentWithTab(): LexicalEditor {
  const editor = createDocumentEditor({ markdown: MARKDOWN });
  registerTabFocus(editor);
  registerTabIndentation(editor);
  return editor;
}

describe("Tab in the document", () => {
  const cases: { where: string; text: string; place: TabIndentPlace | null }[] = [
    { where: "a heading", text: "A heading", place: null },
    { where: "a paragraph", text: "A paragraph.", place: null },
    { where: "a quote", text: "A quote.", place: null },
    { where: "a list item", text: "A list item", place: "list" },
    { where: "a code block", text: "Some code", place: "code" },
    { where: "a table cell", text: "Body cell", place: "table" },
  ];

  for (const { where, text, place } of cases) {
    it(`${place ? "indents" : "leaves the editor"} in ${where}`, () => {
      const editor = createDocumentEditor({ markdown: MARKDOWN });
      caretIn(editor, text);
      expect(editor.getEditorState().read(() => $tabIndentPlaceAtSelection())).toBe(place);
    });
  }

  it("claims Tab outside lists, code and tables without preventing the browser's focus move", () => {
    const editor = documentWithTab();
    caretIn(editor, "A paragraph.", 3);
    const before = editor.getEditorState().read(() => $getRoot().getTextContent());
    const { event, keyboardEvent } = tabKey();
    expect(pressTab(editor, keyboardEvent)).toBe(true);
    expect(event.preventDefault).not.toHaveBeenCalled();
    expect(editor.getEditorState().read(() => $getRoot().getTextContent())).toBe(before);
  });

  it("indents a list item wherever the caret is in it", () => {
    const editor = documentWithTab();
    caretIn(editor, "Second item", 4);
    const { event, keyboardEvent } = tabKey();
    expect(pressTab(editor, keyboardEvent)).toBe(true);
    expect(event.preventDefault).toHaveBeenCalled();
    const indent = editor.getEditorState().read(() => {
      const item = $getRoot()
        .getAllTextNodes()
        .find((node) => node.getTextContent() === "Second item")
        ?.getParent();
      return $isListItemNode(item) ? item.getIndent() : -1;
    });
    expect(indent).toBe(1);
  });
});
