import { MAX_NESTING_DEPTH } from "@coauthor/types";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { repairContent } from "./content-repair.ts";
import { exportMarkdown } from "./markdown.ts";
import { bindDocumentEditor, YJS_ROOT_NAME, yjsUpdateFromMarkdown } from "./yjs-document.ts";

// Stored documents from before the content rule, built the way the v1 binding writes nodes (an
// element is a Y.XmlText with its properties as attributes, a text node a Y.Map followed by its
// text), but nested deeper than any editor would ever bind.

const ELEMENT = { __format: 0, __style: "", __indent: 0, __dir: null, __textFormat: 0, __textStyle: "" };
const TEXT = { __type: "text", __format: 0, __style: "", __mode: 0, __detail: 0 };

/** An empty element of `type`, as the binding writes it. */
function element(type: string): Y.XmlText {
  const node = new Y.XmlText();
  for (const [key, value] of Object.entries({ ...ELEMENT, __type: type })) node.setAttribute(key, value);
  return node;
}

/** Appends a text node holding `text` to a bound element (it must be in a document). */
function appendText(parent: Y.XmlText, text: string): void {
  const map = new Y.Map<unknown>();
  parent.insertEmbed(parent.length, map);
  for (const [key, value] of Object.entries(TEXT)) map.set(key, value);
  parent.insert(parent.length, text);
}

/** The document of `markdown` with a chain of `depth` nested `type` elements inserted at block `at`. */
function withDeepChain(markdown: string, at: number, depth: number, type: string, words: string): Uint8Array {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, yjsUpdateFromMarkdown(markdown));
  const root = doc.get(YJS_ROOT_NAME, Y.XmlText);
  doc.transact(() => {
    let parent = element(type);
    root.insertEmbed(at, parent);
    for (let level = 1; level < depth; level++) {
      const child = element(type);
      parent.insertEmbed(parent.length, child);
      parent = child;
    }
    appendText(parent, words);
  });
  return Y.encodeStateAsUpdate(doc);
}

function markdownOf(state: Uint8Array): string {
  const bound = bindDocumentEditor(state);
  const markdown = exportMarkdown(bound.editor);
  bound.dispose();
  return markdown;
}

describe("repairing stored content that breaks the rule", () => {
  it("leaves a document within the rule alone", () => {
    expect(repairContent(yjsUpdateFromMarkdown("# A\n\n- b\n  - c\n\n> d"))).toBeNull();
    expect(repairContent(withDeepChain("a", 1, MAX_NESTING_DEPTH, "quote", "deep"))).toBeNull();
  });

  for (const depth of [MAX_NESTING_DEPTH + 1, 2_000, 3_000]) {
    it(`replaces a block nested ${depth} deep by its words, keeping the blocks around it`, () => {
      const state = withDeepChain("Before\n\nAfter", 1, depth, "quote", "deep words");
      const repair = repairContent(state);
      expect(repair).toMatchObject({ flattenedBlocks: 1, removedControls: 0 });
      expect(markdownOf(repair?.state ?? new Uint8Array())).toBe("Before\n\ndeep words\n\nAfter");
    });
  }

  it("keeps the order of adjacent deep blocks, first in the document too", () => {
    const first = withDeepChain("Middle", 0, 3_000, "quote", "one");
    const both = new Y.Doc();
    Y.applyUpdate(both, first);
    const root = both.get(YJS_ROOT_NAME, Y.XmlText);
    both.transact(() => {
      let parent = element("listitem");
      root.insertEmbed(1, parent);
      for (let level = 1; level < 3_000; level++) {
        const child = element("listitem");
        parent.insertEmbed(parent.length, child);
        parent = child;
      }
      appendText(parent, "two");
    });
    const repair = repairContent(Y.encodeStateAsUpdate(both));
    expect(repair?.flattenedBlocks).toBe(2);
    expect(markdownOf(repair?.state ?? new Uint8Array())).toBe("one\n\ntwo\n\nMiddle");
  });

  it("removes control characters from text", () => {
    const doc = new Y.Doc();
    Y.applyUpdate(doc, yjsUpdateFromMarkdown("Hello world"));
    const paragraph = doc.get(YJS_ROOT_NAME, Y.XmlText).toDelta()[0].insert as Y.XmlText;
    paragraph.insert(paragraph.length, "\u0000 and\u0007 more\u001b");
    const repair = repairContent(Y.encodeStateAsUpdate(doc));
    expect(repair?.removedControls).toBe(3);
    expect(markdownOf(repair?.state ?? new Uint8Array())).toBe("Hello world and more");
  });

  it("is a forward change: a copy holding the old state converges on the repair", () => {
    const state = withDeepChain("Before\n\nAfter", 1, 2_000, "quote", "deep words");
    const repair = repairContent(state);
    const offline = new Y.Doc();
    Y.applyUpdate(offline, state);
    Y.applyUpdate(offline, repair?.state ?? new Uint8Array());
    expect(markdownOf(Y.encodeStateAsUpdate(offline))).toBe("Before\n\ndeep words\n\nAfter");
  });
});
