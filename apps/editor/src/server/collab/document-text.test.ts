import { yjsUpdateFromMarkdown } from "@coauthor/tools";
import { $getRoot } from "lexical";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { bindLoadedState } from "./document-health";
import { MAX_SEARCH_TEXT_CHARS, plainTextOf, plainTextOfState } from "./document-text";

/** The text Lexical itself gives for the document (the reference), built through a headless editor. */
function lexicalText(state: Uint8Array): string {
  const bound = bindLoadedState(state);
  try {
    return bound.editor.getEditorState().read(() => $getRoot().getTextContent());
  } finally {
    bound.dispose();
    bound.doc.destroy();
  }
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe("a document's plain text for search", () => {
  it.each([
    ["paragraphs and formatting", "# Title\n\nSome **bold** and *italic* text.\n\nSecond paragraph."],
    ["lists, nested", "- one\n- two\n  - nested\n\n1. first\n2. second\n\n- [ ] task"],
    ["a table", "| a | b |\n|---|---|\n| c | d |"],
    [
      "code, a quote and a link",
      "```\nconst x = 1;\n```\n\n> quoted words\n\nSee [the link](https://x.test) here.",
    ],
    ["an empty document", ""],
  ])("has Lexical's words, in order: %s", (_, markdown) => {
    const state = yjsUpdateFromMarkdown(markdown);
    expect(words(plainTextOfState(state))).toEqual(words(lexicalText(state)));
  });

  it("keeps blocks apart and a link inside its line", () => {
    const text = plainTextOfState(
      yjsUpdateFromMarkdown("# Title\n\nSee [the link](https://x.test) here.\n\n- a\n- b"),
    );
    expect(text).toBe("Title\n\nSee the link here.\n\na\nb");
  });

  it("stops at the cap", () => {
    // Built directly in Yjs: the Markdown import of 200,000 characters takes seconds.
    const doc = new Y.Doc();
    const paragraph = new Y.XmlText();
    doc.get("root", Y.XmlText).insertEmbed(0, paragraph);
    paragraph.insert(0, "x".repeat(MAX_SEARCH_TEXT_CHARS + 10));
    expect(plainTextOf(doc)).toHaveLength(MAX_SEARCH_TEXT_CHARS);
  });
});
