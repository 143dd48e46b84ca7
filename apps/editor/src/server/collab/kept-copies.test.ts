import { bindDocumentEditor, runEditorToolNow, yjsUpdateFromMarkdown } from "@coauthor/tools";
import { $getRoot, $getSelection } from "lexical";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { withKeptCopy } from "./kept-copies";

// The server's kept headless copy of a live document: reused between edits, caught up with what
// others changed in between, and dropped when it could differ from the live document.

function liveDocument(markdown: string): Y.Doc {
  const live = new Y.Doc();
  Y.applyUpdate(live, yjsUpdateFromMarkdown(markdown));
  return live;
}

/** A co-editor's edit of `live`: their copy appends `text` and the update reaches `live`. */
function coEditorAppends(live: Y.Doc, text: string): void {
  const theirs = bindDocumentEditor(Y.encodeStateAsUpdate(live));
  const before = Y.encodeStateVector(theirs.doc);
  runEditorToolNow(theirs.editor, "insertBlocks", { markdown: text, position: { at: "end" } });
  Y.applyUpdate(live, Y.encodeStateAsUpdate(theirs.doc, before));
  theirs.dispose();
}

/** The server's edit through the kept copy, applied to `live` as live-edit.ts applies it. */
function serverAppends(documentId: string, live: Y.Doc, text: string) {
  return withKeptCopy(documentId, live, (copy) => {
    const before = Y.encodeStateVector(copy.doc);
    runEditorToolNow(copy.editor, "insertBlocks", { markdown: text, position: { at: "end" } });
    Y.applyUpdate(live, Y.encodeStateAsUpdate(copy.doc, before));
    return copy;
  });
}

const textOf = (copy: ReturnType<typeof bindDocumentEditor>) =>
  copy.editor.read(() => $getRoot().getTextContent());

describe("withKeptCopy", () => {
  it("keeps one copy between edits and catches it up with what co-editors changed in between", () => {
    const live = liveDocument("First.");
    const first = serverAppends("doc-a", live, "Server one.");
    coEditorAppends(live, "Theirs.");
    const second = serverAppends("doc-a", live, "Server two.");
    expect(second).toBe(first);
    expect(textOf(second)).toBe("First.\n\nServer one.\n\nTheirs.\n\nServer two.");
    // The copy and the live document hold the same state.
    const fresh = bindDocumentEditor(Y.encodeStateAsUpdate(live));
    expect(textOf(fresh)).toBe(textOf(second));
  });

  it("gives each use a copy without the last use's selection, as a new copy has none", () => {
    const live = liveDocument("First.");
    withKeptCopy("doc-d", live, (copy) =>
      copy.editor.update(() => void $getRoot().getFirstChildOrThrow().selectEnd(), { discrete: true }),
    );
    const selection = withKeptCopy("doc-d", live, (copy) => copy.editor.getEditorState().read($getSelection));
    expect(selection).toBeNull();
  });

  it("drops a copy whose use threw: its half-made change never reaches the next edit", () => {
    const live = liveDocument("First.");
    const first = serverAppends("doc-b", live, "Kept.");
    expect(() =>
      withKeptCopy("doc-b", live, (copy) => {
        runEditorToolNow(copy.editor, "insertBlocks", { markdown: "Half made.", position: { at: "end" } });
        throw new Error("the change failed after editing its copy");
      }),
    ).toThrow("the change failed");
    const next = serverAppends("doc-b", live, "Next.");
    expect(next).not.toBe(first);
    expect(textOf(next)).toBe("First.\n\nKept.\n\nNext.");
  });

  it("binds a new copy when the live document lacks what the kept one holds (loaded again from storage)", () => {
    const stored = liveDocument("First.");
    const live = new Y.Doc();
    Y.applyUpdate(live, Y.encodeStateAsUpdate(stored));
    const first = serverAppends("doc-c", live, "Lost with the process.");
    const reloaded = new Y.Doc();
    Y.applyUpdate(reloaded, Y.encodeStateAsUpdate(stored));
    const next = serverAppends("doc-c", reloaded, "After the reload.");
    expect(next).not.toBe(first);
    expect(textOf(next)).toBe("First.\n\nAfter the reload.");
  });
});
