"use client";

import type { RunMode } from "@coauthor/types";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useState } from "react";
import { continuableRun, describeStatus } from "./conversation";
import { readSelectionContext } from "./editor-bridge";
import { MessageList } from "./message-list";
import { ModelPicker } from "./model-picker";
import { PlanChecklist, usePlanChecklist } from "./plan-checklist";
import { RunHistory } from "./run-history";
import { RunReviewBar, UndoReport } from "./run-review-bar";
import { useAgentRun } from "./use-agent-run";
import { useRunReview } from "./use-run-review";

const MODES: { mode: RunMode; label: string; hint: string }[] = [
  { mode: "agent", label: "Agent", hint: "Agent mode: the assistant edits the document" },
  { mode: "chat", label: "Chat", hint: "Chat mode: the assistant answers; the document does not change" },
];

/** The collapsible assistant side panel (must sit inside the document's LexicalComposer). */
/** `canEdit` false (a viewer): chat only, the agent mode is not offered. */
export function AssistantPanel({
  documentId,
  userId,
  canEdit = true,
}: {
  documentId: string;
  userId: string;
  canEdit?: boolean;
}) {
  const [editor] = useLexicalComposerContext();
  const [open, setOpen] = useState(true);
  const [chosenMode, setMode] = useState<RunMode>(canEdit ? "agent" : "chat");
  const mode: RunMode = canEdit ? chosenMode : "chat";
  const modes = canEdit ? MODES : MODES.filter((option) => option.mode === "chat");
  const [model, setModel] = useState("");
  const [prompt, setPrompt] = useState("");
  const [showHistory, setShowHistory] = useState(false);
  const [openRunId, setOpenRunId] = useState<string | null>(null);
  const review = useRunReview();
  const plan = usePlanChecklist();
  const run = useAgentRun({
    documentId,
    executeTool: review.executeTool,
    onAgentActiveChange: review.onAgentActiveChange,
    onRunEvent: (event) => {
      review.onRunEvent(event);
      plan.onRunEvent(event);
    },
  });
  const statusText = describeStatus(run.status);
  const continueRunId = canEdit ? continuableRun(run.status) : null;

  const submit = (event?: { preventDefault: () => void }) => {
    event?.preventDefault();
    const text = prompt.trim();
    if (!text) return;
    setPrompt("");
    review.dismiss();
    plan.clear();
    setShowHistory(false);
    void run.send({ prompt: text, mode, model: model || undefined, selection: readSelectionContext(editor) });
  };

  /** Picks up the run that stopped early, with its whole conversation, in a new run. */
  const continueRun = (runId: string) => {
    review.dismiss();
    plan.clear();
    setShowHistory(false);
    void run.send({ prompt: "Continue.", mode: "agent", model: model || undefined, continueRunId: runId });
  };

  return (
    <aside
      className={open ? "assistant-panel" : "assistant-panel collapsed"}
      data-testid="assistant-panel"
      aria-label="Assistant"
    >
      <div className="assistant-header">
        <h2 className="assistant-title">Assistant</h2>
        <button
          type="button"
          className="button ghost"
          data-testid="assistant-history-toggle"
          aria-pressed={showHistory}
          onClick={() => setShowHistory((value) => !value)}
        >
          {showHistory ? "Conversation" : "History"}
        </button>
        <button
          type="button"
          className="button ghost"
          data-testid="assistant-toggle"
          aria-expanded={open}
          aria-controls="assistant-body"
          aria-label={open ? "Hide assistant" : "Show assistant"}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? "⟩" : "⟨"}
        </button>
      </div>
      <p
        className={`assistant-status status-${run.status.phase}`}
        data-testid="assistant-status"
        role="status"
      >
        {statusText}
      </p>
      <div id="assistant-body" className="assistant-body" hidden={!open}>
        <div className="assistant-controls">
          <fieldset className="mode-switch" aria-label="Assistant mode">
            {modes.map((option) => (
              <button
                key={option.mode}
                type="button"
                className="mode-button"
                data-testid={`assistant-mode-${option.mode}`}
                aria-pressed={mode === option.mode}
                aria-label={option.hint}
                title={option.hint}
                onClick={() => setMode(option.mode)}
              >
                {option.label}
              </button>
            ))}
          </fieldset>
          <ModelPicker value={model} onChange={setModel} />
        </div>
        {showHistory ? (
          <RunHistory
            documentId={documentId}
            openRunId={openRunId}
            onOpen={setOpenRunId}
            onUndo={canEdit ? review.undoStoredRun : undefined}
            userId={userId}
          />
        ) : (
          <>
            <PlanChecklist plan={plan.plan} />
            <MessageList items={run.items} />
          </>
        )}
        {review.offer !== null && !run.isRunning ? (
          <RunReviewBar changes={review.offer} onKeep={review.keep} onUndo={review.undoRun} />
        ) : null}
        {review.report !== null ? <UndoReport report={review.report} onDismiss={review.dismiss} /> : null}
        <form className="assistant-form" onSubmit={submit}>
          <textarea
            className="assistant-input"
            data-testid="assistant-input"
            aria-label={mode === "agent" ? "Task for the assistant" : "Question for the assistant"}
            placeholder={mode === "agent" ? "Ask the assistant to edit…" : "Ask about the document…"}
            rows={3}
            value={prompt}
            onChange={(event) => setPrompt(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
            }}
          />
          <div className="assistant-actions">
            {run.isRunning ? (
              <button
                type="button"
                className="button danger"
                data-testid="assistant-stop"
                aria-label="Stop the assistant"
                onClick={run.stop}
              >
                Stop
              </button>
            ) : null}
            {continueRunId && !run.isRunning ? (
              <button
                type="button"
                className="button"
                data-testid="assistant-continue"
                onClick={() => continueRun(continueRunId)}
              >
                Continue
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
      </div>
    </aside>
  );
}
