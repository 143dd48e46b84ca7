import { MAX_NESTING_DEPTH } from "@coauthor/types";
import { $createCodeHighlightNode, $createCodeNode } from "@lexical/code";
import { $createHorizontalRuleNode } from "@lexical/extension";
import { $createLinkNode } from "@lexical/link";
import { $createListItemNode, $createListNode, type ListItemNode } from "@lexical/list";
import { $createHeadingNode, $createQuoteNode } from "@lexical/rich-text";
import { $createTableNodeWithDimensions, $isTableCellNode } from "@lexical/table";
import fc from "fast-check";
import {
  $createTabNode,
  $createTextNode,
  $getRoot,
  $getSelection,
  $insertNodes,
  $isRangeSelection,
  type ElementNode,
  type ParagraphNode,
  type TextNode,
} from "lexical";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { runEditorTool } from "./editor-tools.ts";
import { unknownNodeTypes, updateContentViolation } from "./update-content-check.ts";
import { bindDocumentEditor, YJS_ROOT_NAME, yjsUpdateFromMarkdown } from "./yjs-document.ts";

/** The update a change to `doc` makes (everything after `before`). */
function changeOf(doc: Y.Doc, change: () => void): Uint8Array {
  const before = Y.encodeStateVector(doc);
  doc.transact(change);
  return Y.encodeStateAsUpdate(doc, before);
}

/** A document holding what `doc` holds, as the server's live copy would. */
function serverCopyOf(doc: Y.Doc): Y.Doc {
  const server = new Y.Doc();
  Y.applyUpdate(server, Y.encodeStateAsUpdate(doc));
  return server;
}

/** Nests `levels` elements (the v1 binding's `Y.XmlText`, typed as quotes) one in another under `parent`; the innermost. */
function nestQuotes(parent: Y.XmlText, levels: number): Y.XmlText {
  let current = parent;
  for (let level = 0; level < levels; level++) {
    const child = new Y.XmlText();
    current.insertEmbed(current.length, child);
    child.setAttribute("__type", "quote");
    current = child;
  }
  return current;
}

const rootOf = (doc: Y.Doc) => doc.get(YJS_ROOT_NAME, Y.XmlText);

describe("forbidden controls in an update", () => {
  const controls = [
    ["NUL", "\u0000"],
    ["SOH", "\u0001"],
    ["BS", "\u0008"],
    ["VT", "\u000b"],
    ["CR", "\u000d"],
    ["ESC", "\u001b"],
    ["US", "\u001f"],
    ["DEL", "\u007f"],
  ];

  it.each(controls)("refuses text holding %s, typed into a paragraph", (_name, control) => {
    const doc = new Y.Doc();
    const paragraph = new Y.XmlText();
    Y.applyUpdate(
      doc,
      changeOf(doc, () => rootOf(doc).insertEmbed(0, paragraph)),
    );
    const server = serverCopyOf(doc);
    const update = changeOf(doc, () => paragraph.insert(0, `a${control}b`));
    expect(updateContentViolation(update, server)).toMatchObject({ rule: "forbidden-control" });
  });

  it("accepts tabs, newlines and every other character a writer types", () => {
    const doc = new Y.Doc();
    const update = changeOf(doc, () => {
      const paragraph = new Y.XmlText();
      rootOf(doc).insertEmbed(0, paragraph);
      paragraph.setAttribute("__type", "paragraph");
      paragraph.insert(0, "tab\there\nline — émoji 👩‍👩‍👧 ✨ 🇫🇷 \u00a0 \u200b \u0085 \u2028 日本語");
    });
    expect(updateContentViolation(update, new Y.Doc())).toBeNull();
  });

  it("refuses a control in a text node's properties, as Lexical's binding stores them", () => {
    const bound = bindDocumentEditor(yjsUpdateFromMarkdown("Hello."));
    const server = serverCopyOf(bound.doc);
    const updates: Uint8Array[] = [];
    bound.doc.on("update", (update: Uint8Array) => updates.push(update));
    bound.editor.update(
      () => {
        const paragraph = $getRoot().getFirstChildOrThrow<ParagraphNode>();
        paragraph.getFirstChildOrThrow<TextNode>().setStyle("color: red\u0000");
      },
      { discrete: true },
    );
    expect(updates).toHaveLength(1);
    expect(updateContentViolation(updates[0] as Uint8Array, server)).toMatchObject({
      rule: "forbidden-control",
    });
  });

  it("refuses a control in a map key, in a nested value, in an object key and in a format", () => {
    const doc = new Y.Doc();
    const paragraph = new Y.XmlText();
    Y.applyUpdate(
      doc,
      changeOf(doc, () => rootOf(doc).insertEmbed(0, paragraph)),
    );
    const server = serverCopyOf(doc);
    const calls = doc.getMap<unknown>("agentCalls");
    const forged = [
      changeOf(doc, () => paragraph.setAttribute("__style\u0000", "x")),
      changeOf(doc, () => calls.set("run\u0007:call", { ok: true })),
      changeOf(doc, () => calls.set("run:call", { ok: true, result: [{ text: ["deep", "a\u0000b"] }] })),
      changeOf(doc, () => calls.set("run:other", { "key\u001b": 1 })),
      changeOf(doc, () => paragraph.insert(0, "plain", { bold: "\u0000" })),
      changeOf(doc, () => paragraph.insert(0, "plain", { "b\u007fold": true })),
      changeOf(doc, () => paragraph.insertEmbed(0, { image: "x\u0000" })),
      changeOf(doc, () => doc.getXmlFragment("other").insert(0, [new Y.XmlElement("div\u0000")])),
    ];
    for (const update of forged) {
      expect(updateContentViolation(update, server)).toMatchObject({ rule: "forbidden-control" });
    }
  });

  it("does not check again what the document already holds", () => {
    const doc = new Y.Doc();
    const update = changeOf(doc, () => doc.getMap("legacy").set("k", "from before the rule\u0000"));
    const server = new Y.Doc();
    Y.applyUpdate(server, update);
    expect(updateContentViolation(update, server)).toBeNull();
  });
});

describe("nesting depth of an update", () => {
  it(`accepts elements ${MAX_NESTING_DEPTH} deep and refuses ${MAX_NESTING_DEPTH + 1}, nested inside one update`, () => {
    for (const [levels, accepted] of [
      [MAX_NESTING_DEPTH, true],
      [MAX_NESTING_DEPTH + 1, false],
    ] as const) {
      const doc = new Y.Doc();
      const update = changeOf(doc, () => nestQuotes(rootOf(doc), levels));
      const violation = updateContentViolation(update, new Y.Doc());
      if (accepted) expect(violation).toBeNull();
      else expect(violation).toMatchObject({ rule: "nesting-depth", inPending: false });
    }
  });

  it("counts the levels the document already holds above the update's new elements", () => {
    for (const [levels, accepted] of [
      [MAX_NESTING_DEPTH - 40, true],
      [MAX_NESTING_DEPTH - 39, false],
    ] as const) {
      const doc = new Y.Doc();
      let innermost = rootOf(doc);
      doc.transact(() => {
        innermost = nestQuotes(rootOf(doc), 40);
      });
      const server = serverCopyOf(doc);
      const update = changeOf(doc, () => nestQuotes(innermost, levels));
      const violation = updateContentViolation(update, server);
      if (accepted) expect(violation).toBeNull();
      else expect(violation).toMatchObject({ rule: "nesting-depth" });
    }
  });

  it("finds the parent of an element inserted next to existing text (no parent written, only its neighbour)", () => {
    const doc = new Y.Doc();
    let innermost = rootOf(doc);
    doc.transact(() => {
      innermost = nestQuotes(rootOf(doc), MAX_NESTING_DEPTH - 1);
      innermost.insert(0, "some words");
    });
    const server = serverCopyOf(doc);
    // The new element's origin is the "o" of "some": Yjs places it in that character's parent.
    const sibling = changeOf(doc, () => nestQuotes(innermost, 1));
    expect(updateContentViolation(sibling, server)).toBeNull();
    const tooDeep = changeOf(doc, () => {
      const inner = new Y.XmlText();
      innermost.insertEmbed(2, inner);
      nestQuotes(inner, 1);
    });
    expect(updateContentViolation(tooDeep, server)).toMatchObject({ rule: "nesting-depth" });
  });

  it("refuses 2,000 nested quotes fast and without overflowing the stack", () => {
    const doc = new Y.Doc();
    const update = changeOf(doc, () => nestQuotes(rootOf(doc), 2_000));
    const started = performance.now();
    expect(updateContentViolation(update, new Y.Doc())).toMatchObject({ rule: "nesting-depth" });
    expect(performance.now() - started).toBeLessThan(200);
    // Also as 2,000 updates of one level each, the last ones continuing the document's chain.
    const server = new Y.Doc();
    const client = new Y.Doc();
    let innermost = rootOf(client);
    let refusedAt = 0;
    for (let level = 1; level <= 2_000 && refusedAt === 0; level++) {
      const step = changeOf(client, () => {
        innermost = nestQuotes(innermost, 1);
      });
      if (updateContentViolation(step, server) === null) Y.applyUpdate(server, step);
      else refusedAt = level;
    }
    expect(refusedAt).toBe(MAX_NESTING_DEPTH + 1);
  });

  it("refuses a deep chain sent before its anchor: alone when it is deeper than the rule, or once the anchor comes", () => {
    const doc = new Y.Doc();
    let anchor = rootOf(doc);
    const anchorUpdate = changeOf(doc, () => {
      anchor = nestQuotes(rootOf(doc), 10);
    });
    const chain = changeOf(doc, () => nestQuotes(anchor, MAX_NESTING_DEPTH - 4));
    const server = new Y.Doc();
    // Alone, the chain's top cannot be placed: Yjs keeps it pending and integrates none of it.
    expect(updateContentViolation(chain, server)).toBeNull();
    Y.applyUpdate(server, chain);
    expect(server.store.pendingStructs).not.toBeNull();
    // The anchor is fine (depth 10); what it would let in is not (10 + 60): the pending structs are to blame.
    expect(updateContentViolation(anchorUpdate, server)).toMatchObject({
      rule: "nesting-depth",
      inPending: true,
    });

    // A chain deeper than the rule below its missing anchor is refused at once, wherever it would hang.
    const detached = new Y.Doc();
    const top = new Y.XmlText();
    changeOf(detached, () => rootOf(detached).insertEmbed(0, top));
    const deepChain = changeOf(detached, () => nestQuotes(top, MAX_NESTING_DEPTH + 1));
    expect(updateContentViolation(deepChain, new Y.Doc())).toMatchObject({
      rule: "nesting-depth",
      inPending: false,
    });
  });

  it("reads node types as before: unknown ones are refused, the editor's own are not", () => {
    const doc = new Y.Doc();
    const update = changeOf(doc, () => {
      const block = new Y.XmlText();
      rootOf(doc).insertEmbed(0, block);
      block.setAttribute("__type", "script-runner");
    });
    expect(updateContentViolation(update, new Y.Doc())).toMatchObject({ rule: "unknown-node-type" });
    expect(unknownNodeTypes(update)).toEqual(["script-runner"]);
    const markdown =
      "# T\n\nText **b** [l](https://x)\n\n---\n\n- [ ] a\n\n| a |\n| - |\n| b |\n\n```js\nx\n```";
    expect(unknownNodeTypes(yjsUpdateFromMarkdown(markdown))).toEqual([]);
  });

  it("throws on bytes that are not a Yjs update", () => {
    expect(() => updateContentViolation(Uint8Array.from([0xff, 0xff, 0xff, 0x01]))).toThrow();
    expect(() => unknownNodeTypes(Uint8Array.from([0xff, 0xff, 0xff, 0x01]))).toThrow();
  });
});

/** A headless editor bound to a document, and a server copy that takes each of its updates once checked. */
function editingSession(markdown: string) {
  const bound = bindDocumentEditor(yjsUpdateFromMarkdown(markdown));
  const server = serverCopyOf(bound.doc);
  const refused: string[] = [];
  let updates = 0;
  bound.doc.on("update", (update: Uint8Array) => {
    updates++;
    const violation = updateContentViolation(update, server);
    if (violation) refused.push(violation.detail);
    else Y.applyUpdate(server, update);
  });
  const edit = (change: () => void) => bound.editor.update(change, { discrete: true });
  return { bound, server, refused, edit, updateCount: () => updates };
}

function $typeAtEnd(text: string): void {
  const last = $getRoot().getLastChildOrThrow<ParagraphNode>();
  last.selectEnd();
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) throw new Error("no range selection");
  selection.insertText(text);
}

describe("ordinary Lexical edits", () => {
  it("pass the check, keystroke by keystroke and block by block", async () => {
    const session = editingSession("# Title\n\nFirst paragraph.\n");
    const { edit } = session;
    for (const char of "Typing, one key at a time — 👩‍👩‍👧 ✨ 日本語") edit(() => $typeAtEnd(char));
    edit(() => {
      $typeAtEnd(" before a tab");
      $insertNodes([$createTabNode()]);
      const selection = $getSelection();
      if (!$isRangeSelection(selection)) throw new Error("no range selection");
      selection.insertText("after it");
      selection.insertLineBreak();
      selection.insertText("a soft line");
      selection.insertParagraph();
      selection.insertText("a new paragraph");
      selection.formatText("bold");
      selection.insertText(" bold");
    });
    edit(() => {
      const quote = $createQuoteNode().append($createTextNode("A quote with "));
      quote.append($createLinkNode("https://example.com").append($createTextNode("a link")));
      const code = $createCodeNode("js").append(
        $createCodeHighlightNode("const x = 1;"),
        $createTabNode(),
        $createCodeHighlightNode("// tab"),
      );
      $getRoot().append($createHeadingNode("h2").append($createTextNode("Section")), quote, code);
      $getRoot().append($createHorizontalRuleNode());
    });
    edit(() => {
      const table = $createTableNodeWithDimensions(3, 4, true);
      $getRoot().append(table);
      const firstCell = table.getFirstChildOrThrow<ElementNode>().getFirstChild();
      if (!$isTableCellNode(firstCell)) throw new Error("no table cell");
      firstCell.getFirstChildOrThrow<ParagraphNode>().append($createTextNode("cell ✨"));
    });
    edit(() => {
      const items = ["one", "two", "three", "four"].map((text) =>
        $createListItemNode().append($createTextNode(text)),
      );
      $getRoot().append($createListNode("bullet").append(...items));
      (items[2] as ListItemNode).setIndent(3);
      (items[3] as ListItemNode).setIndent(1);
      $getRoot().append(
        $createListNode("check").append($createListItemNode(true).append($createTextNode("done"))),
      );
    });
    edit(() => {
      // A move is a delete and an insert in the v1 binding.
      const first = $getRoot().getFirstChildOrThrow();
      $getRoot().getLastChildOrThrow().insertAfter(first);
      $getRoot().getChildAtIndex(1)?.remove();
    });
    await runEditorTool(session.bound.editor, "insertBlocks", {
      markdown: "| a | b |\n| - | - |\n| 1 | 2 |\n\n- x\n  - y\n    - z\n\n> quoted [link](https://x.org)",
      position: { at: "end" },
    });
    expect(session.updateCount()).toBeGreaterThan(40);
    expect(session.refused).toEqual([]);
    expect(Y.encodeStateVector(session.server)).toEqual(Y.encodeStateVector(session.bound.doc));
  });

  it("pass the check when a writer types into a long document, each in microseconds", () => {
    const markdown = Array.from(
      { length: 2_000 },
      (_, index) => `Paragraph ${index} of the long document.`,
    ).join("\n\n");
    const session = editingSession(markdown);
    const keystrokes: Uint8Array[] = [];
    session.bound.doc.on("update", (update: Uint8Array) => keystrokes.push(update));
    for (const char of "typing at the end") session.edit(() => $typeAtEnd(char));
    expect(session.refused).toEqual([]);
    const started = performance.now();
    const rounds = 100;
    for (let round = 0; round < rounds; round++) {
      for (const update of keystrokes) updateContentViolation(update, session.server);
    }
    const perKeystroke = (performance.now() - started) / (rounds * keystrokes.length);
    expect(perKeystroke).toBeLessThan(1);
  });
});

/** Element node types a random nesting shape is made of. */
const ELEMENT_TYPES = ["quote", "list", "listitem", "paragraph", "table", "tablerow", "tablecell", "link"];

type ShapeNode = { parentPick: number | "previous"; inDocument: boolean; position: number; type: number };

const shapeArbitrary = fc.array(
  fc.record({
    // Mostly a chain (the node before), so that depths cross the limit often.
    parentPick: fc.oneof({ weight: 4, arbitrary: fc.constant("previous" as const) }, fc.nat()),
    inDocument: fc.boolean(),
    position: fc.nat(),
    type: fc.nat(ELEMENT_TYPES.length - 1),
  }),
  { minLength: 1, maxLength: 160 },
);

/** Node `i` of a shape is element `i + 1` (element 0 is the root): its parent, depth and which part holds it. */
function planOf(shape: ShapeNode[]) {
  const depths = [0];
  const inDocument = [true];
  const nodes = shape.map((node, index) => {
    const parent = node.parentPick === "previous" ? index : node.parentPick % (index + 1);
    // A node under one the update adds is in the update too.
    const documentPart = node.inDocument && inDocument[parent] === true;
    depths.push((depths[parent] ?? 0) + 1);
    inDocument.push(documentPart);
    return {
      parent,
      inDocument: documentPart,
      position: node.position,
      type: ELEMENT_TYPES[node.type] ?? "quote",
    };
  });
  const deepestAdded = Math.max(0, ...depths.filter((_, index) => !inDocument[index]));
  return { nodes, deepestAdded };
}

/** Builds a shape's nodes for which `include` holds, in order, into `doc` (elements keeps every built one). */
function buildShape(
  elements: Y.XmlText[],
  nodes: ReturnType<typeof planOf>["nodes"],
  include: (index: number) => boolean,
): void {
  nodes.forEach((node, index) => {
    if (!include(index)) return;
    const parent = elements[node.parent] as Y.XmlText;
    const element = new Y.XmlText();
    parent.insertEmbed(node.position % (parent.length + 1), element);
    element.setAttribute("__type", node.type);
    if (node.position % 3 === 0) element.insert(0, "words");
    elements[index + 1] = element;
  });
}

describe("random nesting shapes", () => {
  it("are refused exactly when an element the update adds is nested deeper than the rule", () => {
    fc.assert(
      fc.property(shapeArbitrary, (shape) => {
        const { nodes, deepestAdded } = planOf(shape);
        const doc = new Y.Doc();
        const elements = [rootOf(doc)];
        doc.transact(() => buildShape(elements, nodes, (index) => nodes[index]?.inDocument === true));
        const server = serverCopyOf(doc);
        const update = changeOf(doc, () => buildShape(elements, nodes, (index) => !nodes[index]?.inDocument));
        const violation = updateContentViolation(update, server);
        expect(violation === null).toBe(deepestAdded <= MAX_NESTING_DEPTH);
        if (violation) expect(violation.rule).toBe("nesting-depth");
      }),
      { numRuns: 300 },
    );
  });

  it("are refused, or their pending part is, when the update comes in two halves in the wrong order", () => {
    fc.assert(
      fc.property(shapeArbitrary, fc.nat(), (shape, splitPick) => {
        const { nodes, deepestAdded } = planOf(shape);
        const doc = new Y.Doc();
        const elements = [rootOf(doc)];
        doc.transact(() => buildShape(elements, nodes, (index) => nodes[index]?.inDocument === true));
        const server = serverCopyOf(doc);
        const split = splitPick % (nodes.length + 1);
        const inUpdate = (index: number) => nodes[index]?.inDocument === false;
        const first = changeOf(doc, () =>
          buildShape(elements, nodes, (index) => inUpdate(index) && index < split),
        );
        const second = changeOf(doc, () =>
          buildShape(elements, nodes, (index) => inUpdate(index) && index >= split),
        );
        // The second half first: what it hangs from is not on the server yet.
        const secondViolation = updateContentViolation(second, server);
        if (secondViolation === null) Y.applyUpdate(server, second);
        const firstViolation = updateContentViolation(first, server);
        const refused = secondViolation !== null || firstViolation !== null;
        expect(refused).toBe(deepestAdded > MAX_NESTING_DEPTH);
      }),
      { numRuns: 300 },
    );
  });
});
