"use client";

import type { RunMode } from "@coauthor/types";
import type { RefObject } from "react";

/**
 * The prompt box with Send (Enter) and, in Agent mode, Run in background; while a run goes, Stop
 * (also Esc anywhere in the panel); after a run that stopped early, Continue.
 */
export function PromptForm({
  mode,
  prompt,
  promptRef,
  isRunning,
  onPromptChange,
  onSubmit,
  onSubmitInBackground,
  onStop,
  onContinue,
}: {
  mode: RunMode;
  prompt: string;
  promptRef: RefObject<HTMLTextAreaElement | null>;
  isRunning: boolean;
  onPromptChange: (prompt: string) => void;
  onSubmit: () => void;
  /** Sends the task as a run in the background (absent: not offered, e.g. in Chat mode). */
  onSubmitInBackground?: () => void;
  onStop: () => void;
  /** Picks up the run that stopped early (absent when there is none to continue). */
  onContinue?: () => void;
}) {
  return (
    <form
      className="assistant-form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <textarea
        ref={promptRef}
        className="assistant-input"
        data-testid="assistant-input"
        aria-keyshortcuts="Alt+Shift+A"
        aria-label={mode === "agent" ? "Task for the assistant" : "Question for the assistant"}
        placeholder={mode === "agent" ? "Ask the assistant to edit…" : "Ask about the document…"}
        rows={3}
        value={prompt}
        onChange={(event) => onPromptChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
          event.preventDefault();
          onSubmit();
        }}
      />
      <div className="assistant-actions">
        {isRunning ? (
          <button
            type="button"
            className="button danger"
            data-testid="assistant-stop"
            aria-label="Stop the assistant"
            aria-keyshortcuts="Escape"
            onClick={onStop}
          >
            Stop
          </button>
        ) : null}
        {onContinue && !isRunning ? (
          <button
            type="button"
            className="button"
            data-testid="assistant-continue"
            aria-keyshortcuts="Alt+Shift+C"
            onClick={onContinue}
          >
            Continue
          </button>
        ) : null}
        {onSubmitInBackground && !isRunning ? (
          <button
            type="button"
            className="button"
            data-testid="assistant-send-background"
            title="The server does the work: you may close this tab"
            disabled={!prompt.trim()}
            onClick={onSubmitInBackground}
          >
            Run in background
          </button>
        ) : null}
        <button
          type="submit"
          className="button primary"
          data-testid="assistant-send"
          aria-label="Send"
          disabled={!prompt.trim()}
        >
          Send
        </button>
      </div>
    </form>
  );
}
