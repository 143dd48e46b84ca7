"use client";

import type { RefObject } from "react";

/** The panel's title row: History / Conversation, Versions, the shortcuts list, and hide / show (the sheet's button on phones). */
export function PanelHeader({
  open,
  showHistory,
  showVersions,
  toggleRef,
  onToggleHistory,
  onToggleVersions,
  onShowShortcuts,
  onTogglePanel,
}: {
  open: boolean;
  showHistory: boolean;
  showVersions: boolean;
  toggleRef: RefObject<HTMLButtonElement | null>;
  onToggleHistory: () => void;
  onToggleVersions: () => void;
  onShowShortcuts: () => void;
  onTogglePanel: () => void;
}) {
  return (
    <div className="assistant-header">
      <h2 className="assistant-title">Assistant</h2>
      <button
        type="button"
        className="button ghost"
        data-testid="assistant-history-toggle"
        aria-pressed={showHistory}
        aria-keyshortcuts="Alt+Shift+H"
        onClick={onToggleHistory}
      >
        {showHistory ? "Conversation" : "History"}
      </button>
      <button
        type="button"
        className="button ghost"
        data-testid="assistant-versions-toggle"
        aria-pressed={showVersions}
        onClick={onToggleVersions}
      >
        Versions
      </button>
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
