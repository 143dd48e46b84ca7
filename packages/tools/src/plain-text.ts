import * as Y from "yjs";

/**
 * Characters of a document's text kept for search and snippets: a whole book fits; past it the
 * rest is not found by search (the document itself is unaffected).
 */
export const MAX_SEARCH_TEXT_CHARS = 200_000;

/** Lexical element types that sit inside a line of text (no line break around them). */
const INLINE_ELEMENTS = new Set(["link", "autolink"]);

/** What a text-level node (a `Y.Map` of Lexical's Yjs binding) adds to the text. */
const NODE_TEXT: Record<string, string> = { linebreak: "\n", tab: "\t" };

/**
 * The plain text of a document (blocks on lines of their own, top-level blocks separated by a blank
 * line), as the home page searches and shows it. Read straight from Lexical's Yjs binding (a
 * `Y.XmlText` per element node, its text as strings, a `Y.Map` before each text node, a
 * `Y.XmlElement` per decorator): no editor is built, so it is cheap enough for the sync server to
 * run whenever it stores a document. Stops at MAX_SEARCH_TEXT_CHARS.
 */
export function plainTextOf(doc: Y.Doc): string {
  const out: string[] = [];
  let length = 0;
  const push = (text: string) => {
    if (length >= MAX_SEARCH_TEXT_CHARS) return;
    out.push(text);
    length += text.length;
  };
  const walk = (element: Y.XmlText, separator: string) => {
    let first = true;
    let lastWasBlock = false;
    for (const op of element.toDelta() as { insert: unknown }[]) {
      if (length >= MAX_SEARCH_TEXT_CHARS) return;
      const { insert } = op;
      if (typeof insert === "string") {
        if (lastWasBlock) push(separator);
        push(insert);
        lastWasBlock = false;
      } else if (insert instanceof Y.XmlText) {
        const type = insert.getAttribute("__type");
        if (typeof type === "string" && INLINE_ELEMENTS.has(type)) {
          walk(insert, "\n");
          lastWasBlock = false;
        } else {
          if (!first) push(separator);
          walk(insert, "\n");
          lastWasBlock = true;
        }
      } else if (insert instanceof Y.Map) {
        const type = insert.get("__type");
        if (typeof type === "string" && NODE_TEXT[type]) push(NODE_TEXT[type]);
      }
      first = false;
    }
  };
  walk(doc.get("root", Y.XmlText), "\n\n");
  return out.join("").slice(0, MAX_SEARCH_TEXT_CHARS);
}

/** The plain text of a stored Yjs state (see plainTextOf). */
export function plainTextOfState(state: Uint8Array): string {
  const doc = new Y.Doc();
  try {
    Y.applyUpdate(doc, state);
    return plainTextOf(doc);
  } finally {
    doc.destroy();
  }
}
