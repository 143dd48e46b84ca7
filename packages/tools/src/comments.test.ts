import { $isMarkNode } from "@lexical/mark";
import { $getRoot, $isElementNode, $isTextNode, type LexicalEditor, type LexicalNode } from "lexical";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import {
  $anchoredThreadIds,
  $markCommentRange,
  $unmarkThread,
  type CommentRange,
} from "./comment-anchors.ts";
import {
  addReply,
  addThread,
  COMMENTS_ROOT_NAME,
  deleteComment,
  editComment,
  readThread,
  readThreads,
  setThreadStatus,
} from "./comment-threads.ts";
import { runEditorTool } from "./editor-tools.ts";
import { exportMarkdown } from "./markdown.ts";
import { exchange } from "./synced-copies.ts";
import { blockIds } from "./tool-cases.ts";
import { rootsWrittenBy } from "./update-roots.ts";
import { bindDocumentEditor, YJS_ROOT_NAME, yjsUpdateFromMarkdown } from "./yjs-document.ts";

const DOC = "The figure is 42 percent.\n\nSecond paragraph here.";

/** The text each thread's marks cover, by thread id. */
function markedText(editor: LexicalEditor): Record<string, string> {
  return editor.read(() => {
    const covered: Record<string, string> = {};
    const stack: LexicalNode[] = [$getRoot()];
    while (stack.length > 0) {
      const node = stack.pop() as LexicalNode;
      // Overlapping threads nest marks: an inner mark's text counts for the outer thread too.
      if ($isMarkNode(node)) {
        for (const id of node.getIDs()) covered[id] = (covered[id] ?? "") + node.getTextContent();
      }
      if ($isElementNode(node)) stack.push(...[...node.getChildren()].reverse());
    }
    return covered;
  });
}

function mark(editor: LexicalEditor, range: CommentRange, quote: string, id: string) {
  let refusal: string | null = null;
  editor.update(
    () => {
      refusal = $markCommentRange(range, quote, id);
    },
    { discrete: true },
  );
  return refusal;
}

/** Types `text` at character `offset` of top-level block `index`'s first text node. */
function typeAt(editor: LexicalEditor, index: number, offset: number, text: string): void {
  editor.update(
    () => {
      const block = $getRoot().getChildAtIndex(index);
      const first = $isElementNode(block) ? block.getFirstDescendant() : null;
      if (!$isTextNode(first)) throw new Error(`no text in block ${index}`);
      first.spliceText(offset, 0, text, false);
    },
    { discrete: true },
  );
}

const person = (userId: string) => ({ kind: "person" as const, userId, name: userId });

describe("comment anchors: marks around the commented text", () => {
  it("marks the quoted range, and refuses a range whose text changed", () => {
    const copy = bindDocumentEditor(yjsUpdateFromMarkdown(DOC));
    const [first] = blockIds(copy.editor);
    const range = {
      anchor: { blockId: first as string, offset: 14 },
      focus: { blockId: first as string, offset: 24 },
    };
    expect(mark(copy.editor, range, "42 percent", "t1")).toBeNull();
    expect(markedText(copy.editor)).toEqual({ t1: "42 percent" });
    expect(mark(copy.editor, range, "43 percent", "t2")).toBe("text-changed");
    expect(mark(copy.editor, { ...range, anchor: { blockId: "bnosuch", offset: 0 } }, "x", "t3")).toBe(
      "text-changed",
    );
    // A mark is not Markdown: the export is the text alone.
    expect(exportMarkdown(copy.editor)).toBe(DOC);
  });

  it("follows the text as another copy inserts and deletes around and inside it", () => {
    const a = bindDocumentEditor(yjsUpdateFromMarkdown(DOC));
    const b = bindDocumentEditor(Y.encodeStateAsUpdate(a.doc));
    const [first] = blockIds(a.editor);
    const id = first as string;
    mark(
      a.editor,
      { anchor: { blockId: id, offset: 14 }, focus: { blockId: id, offset: 24 } },
      "42 percent",
      "t1",
    );
    exchange(a, b);
    typeAt(b.editor, 0, 0, "Now: ");
    exchange(a, b);
    expect(markedText(a.editor)).toEqual({ t1: "42 percent" });
    expect(markedText(b.editor)).toEqual({ t1: "42 percent" });
    expect(a.editor.read(() => $anchoredThreadIds())).toEqual(["t1"]);
  });

  it("keeps other threads' marks on shared text, and unmarks one thread without touching the text", () => {
    const copy = bindDocumentEditor(yjsUpdateFromMarkdown(DOC));
    const id = blockIds(copy.editor)[0] as string;
    mark(
      copy.editor,
      { anchor: { blockId: id, offset: 4 }, focus: { blockId: id, offset: 16 } },
      "figure is 42",
      "t1",
    );
    mark(
      copy.editor,
      { anchor: { blockId: id, offset: 14 }, focus: { blockId: id, offset: 24 } },
      "42 percent",
      "t2",
    );
    expect(markedText(copy.editor)).toEqual({ t1: "figure is 42", t2: "42 percent" });
    copy.editor.update(() => $unmarkThread("t1"), { discrete: true });
    expect(markedText(copy.editor)).toEqual({ t2: "42 percent" });
    expect(exportMarkdown(copy.editor)).toBe(DOC);
  });

  it("loses the anchor, not the thread, when the agent rewrites the block", async () => {
    const copy = bindDocumentEditor(yjsUpdateFromMarkdown(DOC));
    const id = blockIds(copy.editor)[0] as string;
    mark(
      copy.editor,
      { anchor: { blockId: id, offset: 14 }, focus: { blockId: id, offset: 24 } },
      "42 percent",
      "t1",
    );
    addThread(
      copy.doc,
      { id: "t1", quote: "42 percent", status: "open", at: 1 },
      {
        id: "c1",
        author: person("alice"),
        body: "Is this right?",
        at: 1,
      },
    );
    await runEditorTool(copy.editor, "replaceBlock", { blockId: id, markdown: "The figure is unknown." });
    expect(copy.editor.read(() => $anchoredThreadIds())).toEqual([]);
    expect(readThread(copy.doc, "t1")?.quote).toBe("42 percent");
  });
});

describe("comment anchors under undo and redo", () => {
  it("a deleted commented sentence takes its mark; undo brings text and mark back, redo takes them again", () => {
    const copy = bindDocumentEditor(yjsUpdateFromMarkdown(DOC));
    const id = blockIds(copy.editor)[0] as string;
    mark(
      copy.editor,
      { anchor: { blockId: id, offset: 14 }, focus: { blockId: id, offset: 24 } },
      "42 percent",
      "t1",
    );
    // The writer's own edits, as the editor's history records them (the binding's transactions;
    // its origin is a plain object, so its constructor is what the undo manager tracks).
    const undo = new Y.UndoManager(copy.doc.get(YJS_ROOT_NAME, Y.XmlText), {
      trackedOrigins: new Set([Object]),
    });
    copy.editor.update(
      () => {
        const block = $getRoot().getFirstChild();
        if ($isElementNode(block)) block.clear();
      },
      { discrete: true },
    );
    expect(copy.editor.read(() => $anchoredThreadIds())).toEqual([]);
    undo.undo();
    expect(exportMarkdown(copy.editor)).toBe(DOC);
    expect(markedText(copy.editor)).toEqual({ t1: "42 percent" });
    undo.redo();
    expect(copy.editor.read(() => $anchoredThreadIds())).toEqual([]);
  });
});

describe("comment threads beside the text", () => {
  it("keeps both replies made at once in two copies, and edits, resolves and deletes", () => {
    const a = bindDocumentEditor(yjsUpdateFromMarkdown(DOC));
    addThread(
      a.doc,
      { id: "t1", quote: "42", status: "open", at: 1 },
      {
        id: "c1",
        author: person("alice"),
        body: "Is this right?",
        at: 1,
      },
    );
    const b = bindDocumentEditor(Y.encodeStateAsUpdate(a.doc));
    addReply(a.doc, "t1", { id: "c2", author: person("alice"), body: "Checking.", at: 2 });
    addReply(b.doc, "t1", { id: "c3", author: person("bob"), body: "Yes.", at: 2 });
    exchange(a, b);
    const ids = (doc: Y.Doc) =>
      readThread(doc, "t1")
        ?.comments.map((comment) => comment.id)
        .sort();
    expect(ids(a.doc)).toEqual(["c1", "c2", "c3"]);
    expect(ids(b.doc)).toEqual(ids(a.doc));

    expect(editComment(a.doc, "t1", "c2", "Checked.", 3)).toBe(true);
    expect(readThread(a.doc, "t1")?.comments.find((comment) => comment.id === "c2")).toMatchObject({
      body: "Checked.",
      editedAt: 3,
    });
    expect(setThreadStatus(a.doc, "t1", "resolved", "Alice")).toBe(true);
    expect(readThread(a.doc, "t1")).toMatchObject({ status: "resolved", resolvedBy: "Alice" });
    expect(setThreadStatus(a.doc, "t1", "open", "Bob")).toBe(true);
    expect(readThread(a.doc, "t1")?.resolvedBy).toBeUndefined();

    expect(deleteComment(a.doc, "t1", "c2")).toBe("comment");
    expect(deleteComment(a.doc, "t1", "c1")).toBe("comment");
    expect(deleteComment(a.doc, "t1", "c3")).toBe("thread");
    expect(readThreads(a.doc)).toEqual([]);
    expect(addReply(a.doc, "t1", { id: "c4", author: person("bob"), body: "Late.", at: 5 })).toBe(false);
  });
});

describe("which roots an update writes to (the sync server's door for comments)", () => {
  it("tells text edits from thread writes, deletions included", () => {
    const server = bindDocumentEditor(yjsUpdateFromMarkdown(DOC));
    addThread(
      server.doc,
      { id: "t1", quote: "42", status: "open", at: 1 },
      {
        id: "c1",
        author: person("alice"),
        body: "Is this right?",
        at: 1,
      },
    );
    const writer = bindDocumentEditor(Y.encodeStateAsUpdate(server.doc));
    const written = (change: () => void) => {
      const before = Y.encodeStateVector(writer.doc);
      change();
      return rootsWrittenBy(Y.encodeStateAsUpdate(writer.doc, before), server.doc);
    };

    expect(written(() => typeAt(writer.editor, 1, 0, "More. "))).toEqual(new Set([YJS_ROOT_NAME]));
    expect(
      written(() => addReply(writer.doc, "t1", { id: "x", author: person("eve"), body: "Forged", at: 2 })),
    ).toEqual(new Set([COMMENTS_ROOT_NAME]));
    expect(written(() => deleteComment(writer.doc, "t1", "c1"))).toEqual(new Set([COMMENTS_ROOT_NAME]));
    expect(written(() => writer.doc.getMap(COMMENTS_ROOT_NAME).set("t9", "x"))).toEqual(
      new Set([COMMENTS_ROOT_NAME]),
    );
    // Already in the document: the server's own threads, sent back in a full sync, write nothing.
    expect(rootsWrittenBy(Y.encodeStateAsUpdate(server.doc), server.doc)).toEqual(new Set());
  });

  it("lets a copy delete items the server does not have yet (a writer's own edits, lost by a server restart, re-sent after a keystroke)", () => {
    const server = new Y.Doc();
    const writer = new Y.Doc();
    const root = writer.get(YJS_ROOT_NAME, Y.XmlText);
    root.insert(0, "typed before the restart");
    const beforeDelete = Y.encodeStateVector(writer);
    root.delete(0, 6);
    // Only the deletion: the server lost the typed text and the copy has not re-synced yet.
    const deletion = Y.encodeStateAsUpdate(writer, beforeDelete);
    expect(rootsWrittenBy(deletion, server)).toEqual(new Set());
  });

  it("does not flag a copy catching a lagging server up on text that was typed and deleted (carried as collected structs)", () => {
    // The server restarted from storage that lacked a writer's last edits; the writer's copy has
    // them, typed and since deleted, and Yjs sends deleted content it has collected as GC structs.
    const server = new Y.Doc();
    const writer = new Y.Doc();
    Y.applyUpdate(writer, Y.encodeStateAsUpdate(server));
    // A paragraph (a nested type, as the editor binding makes one) written, then deleted whole.
    const root = writer.get(YJS_ROOT_NAME, Y.XmlText);
    const paragraph = new Y.XmlText();
    root.insertEmbed(0, paragraph);
    paragraph.insert(0, "typed, then deleted");
    root.delete(0, 1);
    const catchUp = Y.encodeStateAsUpdate(writer, Y.encodeStateVector(server));
    expect(Y.decodeUpdate(catchUp).structs.some((struct) => struct instanceof Y.GC)).toBe(true);
    expect(rootsWrittenBy(catchUp, server)).toEqual(new Set([YJS_ROOT_NAME]));
  });
});
