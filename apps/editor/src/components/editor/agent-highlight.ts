import { $findBlockById, $getBlockId, AGENT_EDIT_TAG } from "@coauthor/tools";
import {
  $getNodeByKey,
  $isRootNode,
  type EditorState,
  type LexicalEditor,
  type LexicalNode,
  type NodeKey,
} from "lexical";
import { createScrollIntent } from "./scroll-intent";

// Every agent edit flashes on the blocks it touched, in every copy of the document; in the copy
// of the writer whose run it is, it is also scrolled into view, unless the writer has scrolled on
// purpose in the last few seconds (then we leave the view where they put it).

/** Class (and data attribute) on a block the agent just edited; globals.css fades it out. */
export const AGENT_HIGHLIGHT_CLASS = "agent-edit-highlight";
const HIGHLIGHT_MS = 1_500;
const SCROLL_QUIET_MS = 3_000;

/** The child of the root that holds `node` (getTopLevelElement stops at table cells, which are shadow roots). */
function $topBlock(node: LexicalNode): LexicalNode | null {
  let current: LexicalNode = node;
  for (let parent = current.getParent(); parent !== null; parent = current.getParent()) {
    if ($isRootNode(parent)) return current;
    current = parent;
  }
  return null;
}

/** Block ids of the top-level blocks that contain any node dirtied by an update. */
function affectedBlockIds(state: EditorState, dirty: Iterable<NodeKey>): string[] {
  return state.read(() => {
    const ids = new Set<string>();
    for (const key of dirty) {
      const node = $getNodeByKey(key);
      if (node === null || !node.isAttached()) continue;
      const block = $topBlock(node);
      const id = block === null ? null : $getBlockId(block);
      if (id !== null) ids.add(id);
    }
    return [...ids];
  });
}

function flash(element: HTMLElement, timers: WeakMap<HTMLElement, number>): void {
  const previous = timers.get(element);
  if (previous !== undefined) window.clearTimeout(previous);
  element.classList.remove(AGENT_HIGHLIGHT_CLASS);
  // Restart the fade when the same block is edited again.
  void element.offsetWidth;
  element.classList.add(AGENT_HIGHLIGHT_CLASS);
  element.dataset.agentHighlight = "true";
  timers.set(
    element,
    window.setTimeout(() => {
      element.classList.remove(AGENT_HIGHLIGHT_CLASS);
      // Leave the element exactly as Lexical rendered it (no empty class attribute).
      if (element.classList.length === 0) element.removeAttribute("class");
      delete element.dataset.agentHighlight;
      timers.delete(element);
    }, HIGHLIGHT_MS),
  );
}

/** Flashes blocks of `page` by block id; the writer's own run also scrolls them into view. */
export interface BlockFlasher {
  flash(ids: string[], options: { scroll: boolean }): void;
  dispose(): void;
}

/** A flasher for `page` (it watches the writer's scrolling to know when to leave the view alone). */
export function createBlockFlasher(page: LexicalEditor): BlockFlasher {
  const timers = new WeakMap<HTMLElement, number>();
  const intent = createScrollIntent(SCROLL_QUIET_MS);
  const unregisterRoot = page.registerRootListener((root) => intent.attach(root));
  return {
    flash(ids, { scroll }) {
      const elements = page
        .read(() => ids.map((id) => $findBlockById(id)?.getKey() ?? null))
        .map((key) => (key === null ? null : page.getElementByKey(key)))
        .filter((element): element is HTMLElement => element !== null);
      for (const element of elements) flash(element, timers);
      const first = elements[0];
      if (scroll && first !== undefined && !intent.writerScrolledRecently()) intent.scrollIntoView(first);
    },
    dispose() {
      unregisterRoot();
      intent.detach();
    },
  };
}

/**
 * Calls `onEdit` with the ids of the blocks each agent edit touches. The agent edits its own
 * editor (a mirror of the page's Yjs document); its updates reach the page as Yjs changes, so
 * `onEdit` runs on the next frame, once the page has committed and rendered them.
 * Returns the unregister function.
 */
export function onAgentEdits(agent: LexicalEditor, onEdit: (blockIds: string[]) => void): () => void {
  return agent.registerUpdateListener(({ editorState, dirtyElements, dirtyLeaves, tags }) => {
    if (!tags.has(AGENT_EDIT_TAG)) return;
    const dirty = [...dirtyLeaves, ...[...dirtyElements.keys()].filter((key) => key !== "root")];
    const ids = affectedBlockIds(editorState, dirty);
    if (ids.length > 0) requestAnimationFrame(() => onEdit(ids));
  });
}
