import { $findBlockById } from "@coauthor/tools";
import { $getRoot, type LexicalEditor } from "lexical";
import type { PreviewPosition } from "./agent-live-store";

// Places the insert preview (an overlay in the editor's scroll container, outside Lexical's DOM,
// which Lexical would strip) next to the block it will land by, and opens a gap of the preview's
// height there by growing that block's margin, so the preview never covers the text.

const GAP_PX = 8;

/** The block element the preview sits by, and on which side. */
function findAnchor(editor: LexicalEditor, position: PreviewPosition) {
  return editor.read(() => {
    const root = $getRoot();
    const byId = "blockId" in position ? $findBlockById(position.blockId) : null;
    const block = byId ?? (position.at === "start" ? root.getFirstChild() : root.getLastChild());
    const side: "before" | "after" = byId
      ? position.at === "before"
        ? "before"
        : "after"
      : position.at === "start"
        ? "before"
        : "after";
    return { element: block ? editor.getElementByKey(block.getKey()) : null, side };
  });
}

/** Takes a gap off a block, leaving no empty `style` attribute in Lexical's DOM behind. */
function closeGap(anchor: HTMLElement, marginProperty: "marginBottom" | "marginTop"): void {
  anchor.style[marginProperty] = "";
  if (anchor.style.length === 0) anchor.removeAttribute("style");
}

/** Positions `preview` by its anchor block; returns a function that closes the gap again. */
export function placePreview(
  editor: LexicalEditor,
  preview: HTMLElement,
  position: PreviewPosition,
): () => void {
  const container = preview.offsetParent;
  const { element: anchor, side } = findAnchor(editor, position);
  if (!(container instanceof HTMLElement) || anchor === null) {
    preview.style.visibility = "hidden";
    return () => undefined;
  }
  const marginProperty = side === "after" ? "marginBottom" : "marginTop";
  closeGap(anchor, marginProperty);
  const baseMargin = Number.parseFloat(getComputedStyle(anchor)[marginProperty]) || 0;
  const height = preview.offsetHeight;
  anchor.style[marginProperty] = `${baseMargin + height + 2 * GAP_PX}px`;

  const box = container.getBoundingClientRect();
  const rect = anchor.getBoundingClientRect();
  const top = side === "after" ? rect.bottom + baseMargin + GAP_PX : rect.top - baseMargin - GAP_PX - height;
  preview.style.top = `${top - box.top + container.scrollTop}px`;
  preview.style.left = `${rect.left - box.left + container.scrollLeft}px`;
  preview.style.width = `${rect.width}px`;
  preview.style.visibility = "visible";
  return () => closeGap(anchor, marginProperty);
}
