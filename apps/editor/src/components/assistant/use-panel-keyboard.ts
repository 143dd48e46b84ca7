"use client";

import { type KeyboardEvent as ReactKeyboardEvent, type RefObject, useEffect, useRef } from "react";
import { isTextField, type PanelAction, panelActionOf } from "./panel-shortcuts";

interface PanelKeyboardOptions {
  panel: RefObject<HTMLElement | null>;
  prompt: RefObject<HTMLTextAreaElement | null>;
  shortcutsDialog: RefObject<HTMLDialogElement | null>;
  isRunning: boolean;
  onAction: (action: PanelAction) => void;
  /** Esc inside the panel (not in a dialog): stops the run, or closes the sheet; whether it did anything. */
  onEscape: () => boolean;
}

const inDialog = (target: EventTarget | null) =>
  target instanceof Element && target.closest("dialog") !== null;

/**
 * The assistant panel's keyboard: its Alt+Shift shortcuts and `?` (the shortcuts dialog) from
 * anywhere on the page but a modal dialog, Esc inside the panel stops a run (Esc in the editor or
 * in a dialog keeps its own meaning), and focus goes back to the prompt box when a run ends under it.
 * Returns the panel's keydown handler.
 */
export function usePanelKeyboard({
  panel,
  prompt,
  shortcutsDialog,
  isRunning,
  onAction,
  onEscape,
}: PanelKeyboardOptions) {
  const actions = useRef(onAction);
  useEffect(() => {
    actions.current = onAction;
  });

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || inDialog(event.target)) return;
      const action = panelActionOf(event);
      if (action !== null) {
        event.preventDefault();
        actions.current(action);
      } else if (event.key === "?" && !isTextField(event.target)) {
        event.preventDefault();
        shortcutsDialog.current?.showModal();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [shortcutsDialog]);

  // The Stop button goes away when the run ends; focus that was on it (or anywhere in the panel)
  // goes to the prompt box, never to the top of the page. Focus in the document stays there.
  const wasRunning = useRef(isRunning);
  useEffect(() => {
    if (wasRunning.current && !isRunning) {
      const focused = document.activeElement;
      if (focused === null || focused === document.body || panel.current?.contains(focused))
        prompt.current?.focus();
    }
    wasRunning.current = isRunning;
  }, [isRunning, panel, prompt]);

  return (event: ReactKeyboardEvent) => {
    if (event.key !== "Escape" || event.defaultPrevented || inDialog(event.target)) return;
    if (onEscape()) event.preventDefault();
  };
}
