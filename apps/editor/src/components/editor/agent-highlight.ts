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

// Every agent edit flashes on the blocks it touched and is scrolled into view, unless the writer
// has scrolled on purpose in the last few seconds (then we leave the view where they put it).

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

/**
 * Highlights (and brings into view) in `page` the blocks each agent edit touches. The agent edits
 * its own editor (`agent`, a mirror of the same Yjs document); its updates reach `page` as Yjs
 * changes, so the blocks are found in `page` by block id once it has rendered them.
 * Returns the unregister function.
 */
export function registerAgentHighlight(page: LexicalEditor, agent: LexicalEditor): () => void {
  const timers = new WeakMap<HTMLElement, number>();
  const intent = createScrollIntent(SCROLL_QUIET_MS);
  const unregisterRoot = page.registerRootListener((root) => intent.attach(root));
  const show = (ids: string[]) => {
    const elements = page
      .read(() => ids.map((id) => $findBlockById(id)?.getKey() ?? null))
      .map((key) => (key === null ? null : page.getElementByKey(key)))
      .filter((element): element is HTMLElement => element !== null);
    for (const element of elements) flash(element, timers);
    const first = elements[0];
    if (first !== undefined && !intent.writerScrolledRecently()) intent.scrollIntoView(first);
  };
  const unregisterUpdates = agent.registerUpdateListener(
    ({ editorState, dirtyElements, dirtyLeaves, tags }) => {
      if (!tags.has(AGENT_EDIT_TAG)) return;
      const dirty = [...dirtyLeaves, ...[...dirtyElements.keys()].filter((key) => key !== "root")];
      const ids = affectedBlockIds(editorState, dirty);
      // The page editor applies the change in its own update; flash once it has committed and rendered.
      if (ids.length > 0) requestAnimationFrame(() => show(ids));
    },
  );
  return () => {
    unregisterUpdates();
    unregisterRoot();
    intent.detach();
  };
}
