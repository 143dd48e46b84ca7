import { $findBlockById } from "@coauthor/tools";
import { $isElementNode, $isRootNode, type LexicalEditor } from "lexical";

// Taking the writer to a block an activity line or History links to: scrolled to the middle of
// the view, the caret at its start (the editor focused) and a brief flash so the eye finds it.

/** Class (and `data-revealed`) on the block just revealed; globals.css fades it out. */
export const REVEALED_CLASS = "block-revealed";
const REVEAL_MS = 2_000;
const timers = new WeakMap<HTMLElement, number>();

/** Scrolls `editor` to block `blockId`, puts the caret there and flashes it; false when it is gone. */
export function revealBlock(editor: LexicalEditor, blockId: string): boolean {
  const key = editor.read(() => $findBlockById(blockId)?.getKey() ?? null);
  const element = key === null ? null : editor.getElementByKey(key);
  if (key === null || element === null) return false;
  editor.update(
    () => {
      const node = $findBlockById(blockId);
      // A table's own selection would select cells; its first paragraph is not addressable here.
      if ($isElementNode(node) && !$isRootNode(node) && node.getType() !== "table") node.selectStart();
    },
    { discrete: true },
  );
  editor.focus(undefined, { defaultSelection: "rootStart" });
  element.scrollIntoView({ block: "center" });
  const previous = timers.get(element);
  if (previous !== undefined) window.clearTimeout(previous);
  element.classList.add(REVEALED_CLASS);
  element.dataset.revealed = "true";
  timers.set(
    element,
    window.setTimeout(() => {
      element.classList.remove(REVEALED_CLASS);
      if (element.classList.length === 0) element.removeAttribute("class");
      delete element.dataset.revealed;
      timers.delete(element);
    }, REVEAL_MS),
  );
  return true;
}
