import { $getRoot } from "lexical";
import { describe, expect, it } from "vitest";
import { markChangedWords } from "./criticmarkup-diff.ts";
import { importCriticMarkup } from "./criticmarkup-read.ts";
import { CriticMarkupError, scanCriticMarkup } from "./criticmarkup-syntax.ts";
import { createDocumentEditor } from "./document-editor.ts";
import { exportMarkdown } from "./markdown.ts";
import { exportMarkdownView } from "./markdown-views.ts";
import { $getBlockSuggestion, listSuggestions } from "./suggestions.ts";

// CriticMarkup written by people (not only by the export): what becomes a suggestion, what is
// refused and why.

const READER = { authorId: "bob", authorName: "Bob" };

/** Each block of `markdown` read as CriticMarkup: its text and its change ("" when none). */
function readBlocks(markdown: string): Array<[string, string]> {
  const editor = createDocumentEditor();
  importCriticMarkup(editor, markdown, READER);
  return editor.read(() =>
    $getRoot()
      .getChildren()
      .map((node): [string, string] => [node.getTextContent(), $getBlockSuggestion(node)?.change ?? ""]),
  );
}

describe("reading CriticMarkup", () => {
  it("makes a changed word a replaced block: the old block deleted, the new one inserted, one suggestion", () => {
    expect(readBlocks("Intro.\n\nThe {~~quick~>slow~~}{>>Calmer.<<} fox.\n\nEnd.")).toEqual([
      ["Intro.", ""],
      ["The quick fox.", "deleted"],
      ["The slow fox.", "inserted"],
      ["End.", ""],
    ]);
    const editor = createDocumentEditor();
    importCriticMarkup(editor, "A {++very ++}good {--bad --}day.", READER);
    expect(listSuggestions(editor)).toMatchObject([
      { authorId: "bob", authorName: "Bob", deleted: "A good bad day.", inserted: "A very good day." },
    ]);
  });

  it("makes a block that is all markup an insertion or a deletion of its own, block syntax outside", () => {
    expect(readBlocks("# {++New title++}\n\nKept.\n\n- {--gone--}\n- {--too--}\n\n> {++quoted++}")).toEqual([
      ["New title", "inserted"],
      ["Kept.", ""],
      ["gone\n\ntoo", "deleted"],
      ["quoted", "inserted"],
    ]);
  });

  it("makes a change across two paragraphs one suggestion of both old blocks and the new one", () => {
    const editor = createDocumentEditor();
    importCriticMarkup(editor, "First{--\n\n--}second.", READER);
    expect(listSuggestions(editor)).toMatchObject([{ deleted: "First\nsecond.", inserted: "Firstsecond." }]);
  });

  it("writes a list after a deleted block with the other markers, so neither side joins two lists", () => {
    const markdown = "- a\n\n{--Between.--}\n\n* b";
    const editor = createDocumentEditor();
    importCriticMarkup(editor, markdown, READER);
    expect(exportMarkdownView(editor, "criticmarkup")).toBe(markdown);
    expect(exportMarkdownView(editor, "accepted")).toBe("- a\n\n* b");
  });

  it("reads a change inside a list as the old list and the new one, kept apart until decided", () => {
    const markdown = "Intro.\n\n- one\n- {~~two~>three~~}";
    const editor = createDocumentEditor();
    importCriticMarkup(editor, markdown, READER);
    expect(listSuggestions(editor)).toEqual([
      expect.objectContaining({ deleted: "one\n\ntwo", inserted: "one\n\nthree" }),
    ]);
    expect(exportMarkdownView(editor, "criticmarkup")).toBe(markdown);
    expect(exportMarkdownView(editor, "rejected")).toBe("Intro.\n\n- one\n- two");
  });

  it("keeps escaped delimiters as text", () => {
    expect(readBlocks("Not \\{++ markup ++} here.")).toEqual([["Not {++ markup ++} here.", ""]]);
    expect(readBlocks("{++In \\{++ and ++\\} out.++}")).toEqual([["In {++ and ++} out.", "inserted"]]);
  });

  it("refuses what it cannot read, naming the line", () => {
    const refusal = (markdown: string) => {
      try {
        importCriticMarkup(createDocumentEditor(), markdown, READER);
      } catch (error) {
        expect(error).toBeInstanceOf(CriticMarkupError);
        return (error as Error).message;
      }
      throw new Error("not refused");
    };
    expect(refusal("One.\n\nTwo {++ open")).toMatch(/^line 3: "\{\+\+" is never closed/);
    expect(refusal("A {>>stray comment<<}.")).toMatch(/must follow a change/);
    expect(refusal("A {==highlight==}{>>note<<}.")).toMatch(/highlight/);
    expect(refusal(`A {++b++}{>>${"x".repeat(201)}<<}.`)).toMatch(/at most 200/);
  });

  it("leaves a document it refuses as it was", () => {
    const editor = createDocumentEditor({ markdown: "Before." });
    expect(() => importCriticMarkup(editor, "{++never closed", READER)).toThrow(CriticMarkupError);
    expect(exportMarkdown(editor)).toBe("Before.");
  });
});

describe("the markup of a changed block", () => {
  it("marks the words that differ, list markers outside", () => {
    expect(markChangedWords("- one\n- two", "- one\n- three", false)?.text).toBe("- one\n- {~~two~>three~~}");
    expect(markChangedWords("The **quick** fox", "The **slow** fox", false)?.text).toBe(
      "The **{~~quick~>slow~~}** fox",
    );
  });

  it("marks the whole block when the shape differs or nothing Markdown shows differs", () => {
    expect(markChangedWords("- one", "- one\n- two", false)).toBeNull();
    expect(markChangedWords("# One", "## One", false)).toBeNull();
    expect(markChangedWords("Same.", "Same.", false)).toBeNull();
  });

  it("keeps an escaping backslash out of the way of the markup after it", () => {
    const marked = markChangedWords("a\\ b", "a\\ c", false)?.text ?? "";
    const scanned = scanCriticMarkup(marked);
    expect([scanned.old.text, scanned.new.text]).toEqual(["a\\ b", "a\\ c"]);
    const slash = markChangedWords("x\\", "x\\y", false)?.text ?? "";
    expect([scanCriticMarkup(slash).old.text, scanCriticMarkup(slash).new.text]).toEqual(["x\\", "x\\y"]);
  });
});
