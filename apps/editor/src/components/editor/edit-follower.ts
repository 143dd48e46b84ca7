import { $findBlockById } from "@coauthor/tools";
import type { LexicalEditor } from "lexical";
import type { AgentLiveStore } from "./agent-live-store";
import { createScrollIntent, scrollParent } from "./scroll-intent";

// Whether the writer's view follows their agent's edits. It does from the start of a run, until
// the writer scrolls by hand, or clicks or types in the document: from then on they are reading or writing
// somewhere else, and an edit out of sight never moves the view; the page offers "Jump to the
// change" instead (store.offscreenChange). Taking the jump turns following back on (store.following);
// scrolling there by hand only withdraws the offer (the writer is still reading on their own).

const SCROLL_QUIET_MS = 3_000;

/** Follows the agent's edits in `page`'s view, or offers a jump to them. */
export interface EditFollower {
  /** A run starts: follow its edits, unless the writer is scrolling right now. */
  resume(): void;
  /** Shows `element` (block `blockId`, just edited by the agent) if the writer follows; otherwise offers a jump to it. */
  reveal(element: HTMLElement, blockId: string): void;
  dispose(): void;
}

/** The part of `element` inside `container`'s visible box: "in" view, or out of it "up" or "down". */
function placeInView(element: HTMLElement, container: HTMLElement): "in" | "up" | "down" {
  const box = container.getBoundingClientRect();
  const rect = element.getBoundingClientRect();
  if (rect.bottom <= box.top) return "up";
  if (rect.top >= box.bottom) return "down";
  return "in";
}

/** A follower for `page`, whose jump offer goes to `store`. */
export function createEditFollower(page: LexicalEditor, store: AgentLiveStore): EditFollower {
  const follow = (following: boolean) => {
    if (store.getSnapshot().following !== following) store.update({ following });
  };
  const intent = createScrollIntent(SCROLL_QUIET_MS, () => follow(false));
  const onType = () => follow(false);
  // A press in the document places the caret there: the view must stay where the writer pressed,
  // so a smooth scroll of ours still under way (toward the agent's last edit) ends at once too.
  const onPress = () => {
    intent.stopOurScroll();
    follow(false);
  };
  let container: HTMLElement | null = null;
  let frame = 0;
  // The offered change came into view (the writer scrolled there): withdraw the offer.
  const onScroll = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      const change = store.getSnapshot().offscreenChange;
      if (change === null || container === null) return;
      const element = elementOf(change.blockId);
      if (element === null || placeInView(element, container) === "in")
        store.update({ offscreenChange: null });
    });
  };
  const elementOf = (blockId: string) => {
    const key = page.read(() => $findBlockById(blockId)?.getKey() ?? null);
    return key === null ? null : page.getElementByKey(key);
  };
  const unregisterRoot = page.registerRootListener((root, previous) => {
    intent.attach(root);
    previous?.removeEventListener("keydown", onType);
    previous?.removeEventListener("pointerdown", onPress);
    root?.addEventListener("keydown", onType);
    root?.addEventListener("pointerdown", onPress);
    container?.removeEventListener("scroll", onScroll);
    container = root ? scrollParent(root) : null;
    container?.addEventListener("scroll", onScroll, { passive: true });
  });

  return {
    resume() {
      follow(!intent.writerScrolledRecently());
    },
    reveal(element, blockId) {
      if (container === null) return;
      const place = placeInView(element, container);
      if (place === "in") return;
      if (store.getSnapshot().following) intent.scrollIntoView(element);
      else store.update({ offscreenChange: { blockId, direction: place } });
    },
    dispose() {
      unregisterRoot();
      cancelAnimationFrame(frame);
      intent.detach();
      page.getRootElement()?.removeEventListener("keydown", onType);
      page.getRootElement()?.removeEventListener("pointerdown", onPress);
      container?.removeEventListener("scroll", onScroll);
    },
  };
}
