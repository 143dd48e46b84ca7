// Tells the writer's own scrolling apart from ours: wheel, touch, scrollbar drags and scrolling
// keys count as the writer's; `scroll` events alone do not (our own scrollIntoView fires them).

const SCROLL_KEYS = new Set(["PageUp", "PageDown", "Home", "End", "ArrowUp", "ArrowDown", " "]);

/** The nearest ancestor that scrolls vertically, or the document's scrolling element. */
export function scrollParent(element: HTMLElement): HTMLElement | null {
  for (let node = element.parentElement; node !== null; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if (overflowY === "auto" || overflowY === "scroll") return node;
  }
  return document.scrollingElement instanceof HTMLElement ? document.scrollingElement : null;
}

/** Tracks when the writer last scrolled the editor's scroll container. */
export interface ScrollIntent {
  attach: (root: HTMLElement | null) => void;
  detach: () => void;
  writerScrolledRecently: () => boolean;
  scrollIntoView: (element: HTMLElement) => void;
  /** Ends a smooth scroll of ours that is still under way, leaving the view where it is now. */
  stopOurScroll: () => void;
}

/** Creates a tracker; "recently" means within `quietMs`. `onWriterScroll` hears each scroll of the writer's. */
export function createScrollIntent(
  quietMs: number,
  onWriterScroll: () => void = () => undefined,
): ScrollIntent {
  let lastWriterScroll = Number.NEGATIVE_INFINITY;
  let detachListeners: (() => void) | null = null;
  let container: HTMLElement | null = null;
  // True while a smooth scroll of ours runs: the writer's own scrolling must win over it, and
  // Chromium lets a programmatic smooth scroll carry on under a wheel unless it is cancelled.
  let animating = false;
  const stopOurScroll = () => {
    if (!animating || container === null) return;
    animating = false;
    container.removeEventListener("wheel", takeWheel, { capture: true });
    // An instant scroll to where the view is now ends the smooth one.
    container.scrollTo({ top: container.scrollTop, behavior: "instant" });
  };
  // A wheel turned while our smooth scroll runs: the instant scroll that ends ours would end the
  // wheel's own (already under way on the compositor) too, leaving the view short of where the
  // writer scrolled. So for that one event we scroll by the wheel's amount ourselves. Listened to
  // only while ours runs: a non-passive wheel listener makes every wheel wait for the page.
  const takeWheel = (event: WheelEvent) => {
    const target = container;
    if (target === null) return;
    event.preventDefault();
    stopOurScroll();
    const unit =
      event.deltaMode === WheelEvent.DOM_DELTA_LINE
        ? 40
        : event.deltaMode === WheelEvent.DOM_DELTA_PAGE
          ? target.clientHeight
          : 1;
    target.scrollBy({ top: event.deltaY * unit, left: event.deltaX * unit, behavior: "instant" });
  };
  const note = () => {
    lastWriterScroll = Date.now();
    stopOurScroll();
    onWriterScroll();
  };
  const onScrollEnd = () => {
    animating = false;
    container?.removeEventListener("wheel", takeWheel, { capture: true });
  };
  const onKey = (event: KeyboardEvent) => {
    // In an editable document these keys type or move the caret; they scroll only when it is read-only.
    const editable = event.target instanceof HTMLElement && event.target.isContentEditable;
    if (SCROLL_KEYS.has(event.key) && !editable) note();
  };
  const onPointer = (event: PointerEvent) => {
    // A press on the container itself (not its content) is its scrollbar.
    if (event.target === event.currentTarget) note();
  };

  const detach = () => {
    onScrollEnd();
    detachListeners?.();
    detachListeners = null;
    container = null;
  };
  return {
    attach: (root) => {
      detach();
      const target = root ? scrollParent(root) : null;
      container = target;
      if (target === null) return;
      const passive = { passive: true } as const;
      target.addEventListener("wheel", note, passive);
      target.addEventListener("touchmove", note, passive);
      target.addEventListener("pointerdown", onPointer, passive);
      target.addEventListener("keydown", onKey, passive);
      target.addEventListener("scrollend", onScrollEnd, passive);
      detachListeners = () => {
        target.removeEventListener("wheel", note);
        target.removeEventListener("touchmove", note);
        target.removeEventListener("pointerdown", onPointer);
        target.removeEventListener("keydown", onKey);
        target.removeEventListener("scrollend", onScrollEnd);
      };
    },
    detach,
    writerScrolledRecently: () => Date.now() - lastWriterScroll < quietMs,
    scrollIntoView: (element) => {
      if (!animating) container?.addEventListener("wheel", takeWheel, { passive: false, capture: true });
      animating = true;
      element.scrollIntoView({ block: "nearest", behavior: "smooth" });
    },
    stopOurScroll,
  };
}
