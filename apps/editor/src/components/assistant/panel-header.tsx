"use client";

import type { ReactNode, RefObject } from "react";

/** What the panel's body shows: the conversation, or one of the views the header toggles. */
export type PanelView = "conversation" | "history" | "versions" | "comments";

/** The views the header's buttons toggle (History's button reads "Conversation" while it is shown). */
const VIEW_BUTTONS: ReadonlyArray<{
  view: Exclude<PanelView, "conversation">;
  label: string;
  keys?: string;
}> = [
  { view: "history", label: "History", keys: "Alt+Shift+H" },
  { view: "versions", label: "Versions" },
  { view: "comments", label: "Comments" },
];

/** The panel's title row: History / Conversation, Versions, Comments, the shortcuts list, and hide / show (the sheet's button on phones). */
export function PanelHeader({
  open,
  view,
  toggleRef,
  onToggleView,
  onShowShortcuts,
  onTogglePanel,
  badges = {},
}: {
  open: boolean;
  view: PanelView;
  toggleRef: RefObject<HTMLButtonElement | null>;
  onToggleView: (view: Exclude<PanelView, "conversation">) => void;
  onShowShortcuts: () => void;
  onTogglePanel: () => void;
  /** What a view's button shows beside its label (the Comments button: open threads, mentions). */
  badges?: Partial<Record<Exclude<PanelView, "conversation">, ReactNode>>;
}) {
  return (
    <div className="assistant-header">
      <h2 className="assistant-title">Assistant</h2>
      {VIEW_BUTTONS.map((button) => (
        <button
          key={button.view}
          type="button"
          className="button ghost assistant-view-button"
          data-testid={`assistant-${button.view}-toggle`}
          aria-pressed={view === button.view}
          aria-keyshortcuts={button.keys}
          onClick={() => onToggleView(button.view)}
        >
          {button.view === "history" && view === "history" ? "Conversation" : button.label}
          {badges[button.view]}
        </button>
      ))}
      <button
        type="button"
        className="button ghost assistant-shortcuts-button"
        data-testid="assistant-shortcuts"
        aria-label="Keyboard shortcuts"
        aria-keyshortcuts="?"
        aria-haspopup="dialog"
        onClick={onShowShortcuts}
      >
        ?
      </button>
      <button
        ref={toggleRef}
        type="button"
        className="button ghost assistant-toggle"
        data-testid="assistant-toggle"
        aria-expanded={open}
        aria-controls="assistant-body"
        aria-label={open ? "Hide assistant" : "Show assistant"}
        aria-keyshortcuts="Alt+Shift+P"
        onClick={onTogglePanel}
      >
        <span aria-hidden="true" className="assistant-toggle-icon">
          {open ? "⟩" : "⟨"}
        </span>
        {/* Shown on phones, where the closed panel is only this button. */}
        <span className="assistant-toggle-text">{open ? "Hide" : "Assistant"}</span>
      </button>
    </div>
  );
}
