"use client";

import { useRef, useState } from "react";
import { flushSync } from "react-dom";

/** Below this width the panel is a sheet over the document, closed until the writer opens it. */
const SHEET_QUERY = "(max-width: 767px)";

const isSheet = () => window.matchMedia(SHEET_QUERY).matches;

/**
 * Whether the assistant panel is open, and the moves that keep focus where a keyboard user expects
 * it: open-and-focus (the body renders first: a closed panel's body is hidden) and a toggle that
 * returns focus to the toggle button when the body holding it closes.
 */
export function usePanelOpen() {
  // The panel renders in the browser only (after the document query), so the width is known here.
  const [open, setOpen] = useState(() => typeof window === "undefined" || !isSheet());
  const panel = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  const openNow = () => flushSync(() => setOpen(true));
  const openAndFocus = (target: { current: HTMLElement | null }) => {
    openNow();
    target.current?.focus();
  };
  const togglePanel = () => {
    const focusInside = panel.current?.contains(document.activeElement) === true;
    flushSync(() => setOpen(!open));
    // Focus in the body that just closed would fall to the top of the page; the toggle stays.
    if (open && focusInside) toggle.current?.focus();
  };
  /** Escape closes the panel where it is a sheet over the document; false: it was not closed. */
  const closeSheet = () => {
    if (!open || !isSheet()) return false;
    togglePanel();
    return true;
  };
  return { open, setOpen, openNow, openAndFocus, togglePanel, closeSheet, panel, toggle };
}
