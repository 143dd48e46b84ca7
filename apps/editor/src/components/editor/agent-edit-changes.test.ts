import { $findBlockById, $getBlockId, createDocumentEditor } from "@coauthor/tools";
import {
  $createParagraphNode,
  $createTextNode,
  $getRoot,
  $isElementNode,
  $isTextNode,
  type LexicalEditor,
} from "lexical";
import { describe, expect, it } from "vitest";
import { type AgentEditChanges, agentEditChanges, removalLabel } from "./agent-edit-changes";

const ids = (editor: LexicalEditor) =>
  editor.getEditorState().read(() =>
    $getRoot()
      .getChildren()
      .map((block) => $getBlockId(block) ?? ""),
  );

/** Runs `fn` as one update and returns what it changed, from the dirty marks Lexical reports. */
function changesOf(editor: LexicalEditor, fn: () => void): AgentEditChanges {
  let changes: AgentEditChanges | null = null;
  const unregister = editor.registerUpdateListener(
    ({ prevEditorState, editorState, dirtyElements, dirtyLeaves }) => {
      const dirty = [...dirtyLeaves, ...[...dirtyElements.keys()].filter((key) => key !== "root")];
      changes = agentEditChanges(prevEditorState, editorState, dirty, dirtyElements.has("root"));
    },
  );
  editor.update(fn, { discrete: true });
  unregister();
  if (changes === null) throw new Error("the update reported nothing");
  return changes;
}

describe("agentEditChanges", () => {
  it("an appended paragraph is the only change, not the paragraph before it", () => {
    const editor = createDocumentEditor({ markdown: "One.\n\nTwo.\n\nThree." });
    const changes = changesOf(editor, () => {
      $getRoot().append($createParagraphNode().append($createTextNode("Four.")));
    });
    expect(changes.changedIds).toEqual([ids(editor)[3]]);
    expect(changes.removed).toEqual([]);
  });

  it("a deletion changes no neighbour and leaves one trace between the survivors", () => {
    const editor = createDocumentEditor({
      markdown: "Keep.\n\nDrop a.\n\nDrop b.\n\n## Drop c\n\nAlso keep.",
    });
    const [keep, a, b, c, also] = ids(editor);
    const changes = changesOf(editor, () => {
      for (const id of [a, b, c]) $findBlockById(id ?? "")?.remove();
    });
    expect(changes.changedIds).toEqual([]);
    expect(changes.removed).toEqual([
      { afterId: keep, beforeId: also, label: "2 paragraphs and 1 heading removed" },
    ]);
  });

  it("deletions apart leave a trace each, at the start and at the end too", () => {
    const editor = createDocumentEditor({ markdown: "First.\n\nMiddle.\n\nLast." });
    const [first, middle, last] = ids(editor);
    const changes = changesOf(editor, () => {
      $findBlockById(first ?? "")?.remove();
      $findBlockById(last ?? "")?.remove();
    });
    expect(changes.removed).toEqual([
      { afterId: null, beforeId: middle, label: "1 paragraph removed" },
      { afterId: middle, beforeId: null, label: "1 paragraph removed" },
    ]);
  });

  it("rewriting text changes that block only", () => {
    const editor = createDocumentEditor({ markdown: "The cat sat.\n\nNotes." });
    const [cat] = ids(editor);
    const changes = changesOf(editor, () => {
      const block = $findBlockById(cat ?? "");
      const text = $isElementNode(block) ? block.getFirstDescendant() : null;
      if ($isTextNode(text)) text.setTextContent("The dog sat.");
    });
    expect(changes).toEqual({ changedIds: [cat], removed: [] });
  });

  it("an insert between two blocks changes neither of them", () => {
    const editor = createDocumentEditor({ markdown: "Above.\n\nBelow." });
    const [above, below] = ids(editor);
    const changes = changesOf(editor, () => {
      $findBlockById(above ?? "")?.insertAfter($createParagraphNode().append($createTextNode("Between.")));
    });
    expect(changes.changedIds).toHaveLength(1);
    expect(changes.changedIds).not.toContain(above);
    expect(changes.changedIds).not.toContain(below);
  });

  it("a moved block is changed; the blocks around its old and new place are not", () => {
    const editor = createDocumentEditor({ markdown: "A.\n\nB.\n\nC.\n\nD.\n\nE." });
    const [a, b, , d] = ids(editor);
    const changes = changesOf(editor, () => {
      const moving = $findBlockById(b ?? "");
      if (moving) $findBlockById(d ?? "")?.insertAfter(moving);
    });
    expect(changes).toEqual({ changedIds: [b], removed: [] });
    expect(ids(editor)[0]).toBe(a);
  });
});

describe("removalLabel", () => {
  it("counts by kind in plain words", () => {
    expect(removalLabel(["paragraph", "paragraph", "paragraph"])).toBe("3 paragraphs removed");
    expect(removalLabel(["heading-2"])).toBe("1 heading removed");
    expect(removalLabel(["bullet-list", "paragraph", "table"])).toBe(
      "1 list, 1 paragraph and 1 table removed",
    );
  });
});
