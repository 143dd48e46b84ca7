import { MAX_NESTING_DEPTH } from "@coauthor/types";
import { $createCodeHighlightNode, $createCodeNode } from "@lexical/code";
import { registerTabIndentation } from "@lexical/extension";
import { $createLinkNode } from "@lexical/link";
import { $createListItemNode, $createListNode, $isListItemNode, type ListItemNode } from "@lexical/list";
import { $createTableNodeWithDimensions, $isTableCellNode } from "@lexical/table";
import {
  $getRoot,
  $getSelection,
  $isRangeSelection,
  $isTextNode,
  type ElementNode,
  INDENT_CONTENT_COMMAND,
  type LexicalEditor,
  type ParagraphNode,
} from "lexical";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { MAX_LIST_INDENT, registerTextControlFilter } from "./content-input.ts";
import { updateContentViolation } from "./update-content-check.ts";
import { bindDocumentEditor, YJS_ROOT_NAME, yjsUpdateFromMarkdown } from "./yjs-document.ts";

/** A bound headless editor whose every update is checked as the sync server would, then applied to its copy. */
function checkedSession(markdown: string) {
  const bound = bindDocumentEditor(yjsUpdateFromMarkdown(markdown));
  const server = new Y.Doc();
  Y.applyUpdate(server, Y.encodeStateAsUpdate(bound.doc));
  const refused: string[] = [];
  bound.doc.on("update", (update: Uint8Array) => {
    const violation = updateContentViolation(update, server);
    if (violation) refused.push(violation.detail);
    else Y.applyUpdate(server, update);
  });
  return { ...bound, server, refused };
}

function $insertAtSelection(text: string): void {
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) throw new Error("no range selection");
  selection.insertText(text);
}

/** The deepest element (`Y.XmlText`) under the root, counted as the content rule counts (a top-level block is 1). */
function deepestElement(doc: Y.Doc): number {
  let deepest = 0;
  const stack: Array<[Y.XmlText, number]> = [[doc.get(YJS_ROOT_NAME, Y.XmlText), 0]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [element, depth] = entry;
    deepest = Math.max(deepest, depth);
    for (const op of element.toDelta() as Array<{ insert: unknown }>) {
      if (op.insert instanceof Y.XmlText) stack.push([op.insert, depth + 1]);
    }
  }
  return deepest;
}

describe("the text control filter", () => {
  it("removes forbidden controls from what a writer types or pastes, keeping the caret after the text", () => {
    const session = checkedSession("Start");
    registerTextControlFilter(session.editor);
    session.editor.update(
      () => {
        $getRoot().getFirstChildOrThrow<ParagraphNode>().selectEnd();
        $insertAtSelection(" a\u0000b\u0007c\u001bd\u007fe\r\nf\tg");
      },
      { discrete: true },
    );
    session.editor.update(() => $insertAtSelection("!"), { discrete: true });
    session.editor.read(() => {
      expect($getRoot().getTextContent()).toBe("Start abcde\nf\tg!");
    });
    expect(session.refused).toEqual([]);
  });

  it("filters code too (its highlighted text is a TextNode subclass) and leaves clean text alone", () => {
    const session = checkedSession("Start");
    registerTextControlFilter(session.editor);
    let updates = 0;
    session.doc.on("update", () => updates++);
    session.editor.update(
      () => {
        const code = $createCodeNode("js").append($createCodeHighlightNode("let bell = '\u0007';"));
        $getRoot().append(code);
      },
      { discrete: true },
    );
    session.editor.read(() => {
      const code = $getRoot().getLastChildOrThrow<ElementNode>();
      expect(code.getTextContent()).toBe("let bell = '';");
      expect(code.getAllTextNodes().every($isTextNode)).toBe(true);
    });
    expect(session.refused).toEqual([]);
    const before = updates;
    session.editor.update(() => $getRoot().getFirstChildOrThrow<ParagraphNode>().append(), {
      discrete: true,
    });
    expect(updates).toBe(before);
  });
});

/** A list in a table cell (the deepest place the editor starts one), its item holding a link; the link's text. */
function $listWithLinkInTableCell(): void {
  const table = $createTableNodeWithDimensions(2, 2, false);
  $getRoot().append(table);
  const cell = table.getFirstChildOrThrow<ElementNode>().getFirstChild();
  if (!$isTableCellNode(cell)) throw new Error("no table cell");
  const item = $createListItemNode().append($createLinkNode("https://example.com").append());
  cell.clear().append($createListNode("bullet").append($createListItemNode(), item));
  const link = item.getFirstChildOrThrow<ElementNode>();
  link.select();
  $insertAtSelection("deep");
}

function $deepestItemIndent(): number {
  let indent = 0;
  for (const node of $getRoot().getAllTextNodes()) {
    const item = node.getParents().find($isListItemNode) as ListItemNode | undefined;
    if (item) indent = Math.max(indent, item.getIndent());
  }
  return indent;
}

/** Presses Tab `times` times, each press its own committed update (as keystrokes are). */
function indentRepeatedly(editor: LexicalEditor, times: number): void {
  for (let press = 0; press < times; press++) {
    editor.update(() => editor.dispatchCommand(INDENT_CONTENT_COMMAND, undefined), { discrete: true });
  }
}

describe("list indentation with Tab", () => {
  it(`stops at indent ${MAX_LIST_INDENT}: the deepest a writer can reach stays within the rule, in a table cell, with a link`, () => {
    const session = checkedSession("Start");
    registerTabIndentation(session.editor, MAX_LIST_INDENT + 1);
    session.editor.update($listWithLinkInTableCell, { discrete: true });
    indentRepeatedly(session.editor, 100);
    session.editor.read(() => expect($deepestItemIndent()).toBe(MAX_LIST_INDENT));
    expect(session.refused).toEqual([]);
    const deepest = deepestElement(session.doc);
    expect(deepest).toBeLessThanOrEqual(MAX_NESTING_DEPTH);
    expect(deepest).toBeGreaterThan(MAX_NESTING_DEPTH - 3);
  });

  it("without the cap, the same presses build nesting the sync server refuses", () => {
    const session = checkedSession("Start");
    registerTabIndentation(session.editor);
    session.editor.update($listWithLinkInTableCell, { discrete: true });
    indentRepeatedly(session.editor, 40);
    expect(session.refused.length).toBeGreaterThan(0);
  });
});
