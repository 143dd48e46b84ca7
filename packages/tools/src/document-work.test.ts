import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import {
  exportStateMarkdown,
  exportStateView,
  exportStateWithBlocks,
  importCriticMarkupDocument,
  importMarkdownDocument,
  MAX_IMPORTED_STATE_BYTES,
  repairStoredState,
  stateLoadProblem,
} from "./document-work.ts";
import { YJS_ROOT_NAME } from "./yjs-document.ts";

// The whole-document conversions the server runs in worker threads: what crosses the thread is
// plain values, so each refusal must come back as a value that says why.

const markdown = "# Title\n\nSome **bold** text.\n\n- one\n- two";

/** `state` with one more top-level block of a node type no editor knows. */
function withUnknownNode(state: Uint8Array): Uint8Array {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  const block = new Y.XmlText();
  doc.get(YJS_ROOT_NAME, Y.XmlText).insertEmbed(0, block);
  block.setAttribute("__type", "script-runner");
  return Y.encodeStateAsUpdate(doc);
}

describe("whole-document work", () => {
  it("imports Markdown as a Yjs state with its plain text, and exports that state as the same Markdown", () => {
    const imported = importMarkdownDocument(markdown);
    if (!imported.ok) throw new Error("the import was refused");
    expect(imported.plainText).toBe("Title\n\nSome bold text.\n\none\ntwo");
    expect(stateLoadProblem(imported.state)).toBeNull();
    expect(exportStateMarkdown(imported.state)).toEqual({ ok: true, markdown });
    // With its blocks, as the Versions view compares them: ids, each block's Markdown, no authors.
    const withBlocks = exportStateWithBlocks(imported.state);
    if (!withBlocks.ok) throw new Error("the state did not load");
    expect(withBlocks.markdown).toBe(markdown);
    expect(withBlocks.blocks.map((block) => block.markdown)).toEqual([
      "# Title",
      "Some **bold** text.",
      "- one\n- two",
    ]);
    expect(new Set(withBlocks.blocks.map((block) => block.id)).size).toBe(3);
    expect(withBlocks.blocks.every((block) => block.id !== null && block.authors.length === 0)).toBe(true);
    expect(exportStateWithBlocks(withUnknownNode(imported.state))).toEqual({
      ok: false,
      damage: "unknown node types: script-runner",
    });
  });

  it("answers Markdown past the content rule with what and where, not a throw", () => {
    expect(importMarkdownDocument(`${"> ".repeat(100)}x`)).toEqual({
      ok: false,
      invalidContent: "more than 64 nested quotes or list items at line 1",
    });
  });

  it("says why a state does not load: bytes that are no Yjs update, a node type no editor knows", () => {
    const imported = importMarkdownDocument("Text.");
    if (!imported.ok) throw new Error("the import was refused");
    const unknown = withUnknownNode(imported.state);
    expect(stateLoadProblem(unknown)).toBe("unknown node types: script-runner");
    expect(exportStateMarkdown(unknown)).toEqual({ ok: false, damage: "unknown node types: script-runner" });
    expect(stateLoadProblem(new Uint8Array([0xff, 0x13, 0x37, 0x00, 0x42]))).toEqual(expect.any(String));
  });

  it("refuses Markdown whose state would be larger than MAX_IMPORTED_STATE_BYTES, saying how large", () => {
    // Flat emphasis costs about 65 bytes of state a character of Markdown.
    const markdown = Array(140).fill(Array(128).fill("*a*").join(" ")).join("\n\n");
    const imported = importMarkdownDocument(markdown);
    expect(imported).toEqual({ ok: false, stateBytes: expect.any(Number) });
    if ("stateBytes" in imported) expect(imported.stateBytes).toBeGreaterThan(MAX_IMPORTED_STATE_BYTES);
  }, 60_000);

  it("repairs a stored state that breaks the rule, returning the update that repairs it, and leaves a good one", () => {
    const imported = importMarkdownDocument("Text.");
    if (!imported.ok) throw new Error("refused");
    expect(repairStoredState(imported.state)).toEqual({ repaired: false });
    const doc = new Y.Doc();
    Y.applyUpdate(doc, imported.state);
    const paragraph = doc.get(YJS_ROOT_NAME, Y.XmlText).toDelta()[0]?.insert;
    if (!(paragraph instanceof Y.XmlText)) throw new Error("no paragraph");
    paragraph.insert(0, "\u0000");
    const repair = repairStoredState(Y.encodeStateAsUpdate(doc));
    expect(repair).toMatchObject({ repaired: true, removedControls: 1, flattenedBlocks: 0 });
    if (!("update" in repair)) return;
    Y.applyUpdate(doc, repair.update);
    expect(exportStateMarkdown(Y.encodeStateAsUpdate(doc))).toEqual({ ok: true, markdown: "Text." });
    expect(repairStoredState(new Uint8Array([0xff, 0x13]))).toEqual({ unreadable: expect.any(String) });
  });
});

describe("whole-document work with CriticMarkup", () => {
  const author = { authorId: "bob", authorName: "Bob" };
  const critic = "# Title\n\nThe {~~quick~>slow~~}{>>Calmer.<<} fox.\n\n{++New.++}";

  it("imports CriticMarkup as pending suggestions and exports the state in every view", () => {
    const imported = importCriticMarkupDocument({ markdown: critic, author });
    if (!imported.ok) throw new Error("the import was refused");
    const view = (name: "accepted" | "rejected" | "criticmarkup" | undefined) =>
      exportStateView({ state: imported.state, view: name });
    expect(view("criticmarkup")).toEqual({ ok: true, markdown: critic, hasSuggestions: true });
    expect(view("accepted")).toMatchObject({ markdown: "# Title\n\nThe slow fox.\n\nNew." });
    expect(view("rejected")).toMatchObject({ markdown: "# Title\n\nThe quick fox." });
    expect(view(undefined)).toMatchObject({ markdown: "# Title\n\nThe quick fox.\n\nThe slow fox.\n\nNew." });
  });

  it("refuses markup it does not read as a value that says why", () => {
    expect(importCriticMarkupDocument({ markdown: "A {++never closed", author })).toEqual({
      ok: false,
      invalidCriticMarkup: expect.stringMatching(/never closed/),
    });
    const plain = importMarkdownDocument("Plain.");
    if (!plain.ok) throw new Error("the import was refused");
    expect(exportStateView({ state: plain.state, view: "criticmarkup" })).toEqual({
      ok: true,
      markdown: "Plain.",
      hasSuggestions: false,
    });
  });
});
