import { $findBlockById, AGENT_EDIT_TAG } from "@coauthor/tools";
import type { LexicalEditor } from "lexical";
import { type AgentEditChanges, agentEditChanges } from "./agent-edit-changes";

// Every agent edit flashes the blocks it changed — those only, not their neighbours (see
// agent-edit-changes.ts) — in every copy of the document.

/** Class (and data attribute) on a block the agent just edited; globals.css fades it out. */
export const AGENT_HIGHLIGHT_CLASS = "agent-edit-highlight";
const HIGHLIGHT_MS = 1_500;

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

/** Flashes blocks of a page by block id. */
export interface BlockFlasher {
  /** Flashes the blocks `ids` and returns their elements, in the order of `ids` (missing ones left out). */
  flash(ids: string[]): HTMLElement[];
}

/** A flasher for `page`. */
export function createBlockFlasher(page: LexicalEditor): BlockFlasher {
  const timers = new WeakMap<HTMLElement, number>();
  return {
    flash(ids) {
      const elements = page
        .read(() => ids.map((id) => $findBlockById(id)?.getKey() ?? null))
        .map((key) => (key === null ? null : page.getElementByKey(key)))
        .filter((element): element is HTMLElement => element !== null);
      for (const element of elements) flash(element, timers);
      return elements;
    },
  };
}

/**
 * Calls `onEdit` with what each agent edit changed. The agent edits its own editor (a mirror of
 * the page's Yjs document); its updates reach the page as Yjs changes, so `onEdit` runs on the
 * next frame, once the page has committed and rendered them. Returns the unregister function.
 */
export function onAgentEdits(agent: LexicalEditor, onEdit: (changes: AgentEditChanges) => void): () => void {
  return agent.registerUpdateListener(
    ({ prevEditorState, editorState, dirtyElements, dirtyLeaves, tags }) => {
      if (!tags.has(AGENT_EDIT_TAG)) return;
      const dirty = [...dirtyLeaves, ...[...dirtyElements.keys()].filter((key) => key !== "root")];
      const changes = agentEditChanges(prevEditorState, editorState, dirty, dirtyElements.has("root"));
      if (changes.changedIds.length + changes.removed.length > 0)
        requestAnimationFrame(() => onEdit(changes));
    },
  );
}
