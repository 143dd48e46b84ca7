"use client";

import type { RunMode } from "@coauthor/types";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useCallback, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { CommentBadge } from "../comments/comment-badge";
import { useCommentRequests } from "../comments/comment-selection";
import { CommentsView } from "../comments/comments-view";
import { useCommentBadge } from "../comments/use-comment-badge";
import { readBlockInfos } from "../editor/block-info";
import { revealBlock } from "../editor/reveal-block";
import { AgentOptions } from "./agent-options";
import { continuableRun, describeStatus } from "./conversation";
import { ConversationView } from "./conversation-view";
import { useAgentEditMode } from "./edit-mode";
import { readSelectionContext } from "./editor-bridge";
import { type ModeOption, ModeSwitch } from "./mode-switch";
import { ModelPicker } from "./model-picker";
import { PanelHeader, type PanelView } from "./panel-header";
import type { PanelAction } from "./panel-shortcuts";
import { usePipelineTree } from "./pipeline-tree";
import { usePlanChecklist } from "./plan-checklist";
import { PromptForm } from "./prompt-form";
import { useRunAnnouncements } from "./run-announcements";
import { RunHistory } from "./run-history";
import { RunReviewBar, UndoReport } from "./run-review-bar";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { adjacentSuggestionBlock } from "./suggestion-navigation";
import { useAgentRun } from "./use-agent-run";
import { usePanelKeyboard } from "./use-panel-keyboard";
import { usePanelOpen } from "./use-panel-open";
import { useRunReview } from "./use-run-review";
import { VersionHistory } from "./version-history";

const MODES: ModeOption<RunMode>[] = [
  { mode: "agent", label: "Agent", hint: "Agent mode: the assistant edits the document" },
  { mode: "chat", label: "Chat", hint: "Chat mode: the assistant answers; the document does not change" },
];

/**
 * The collapsible assistant side panel (a sheet on phones; must sit inside the document's
 * LexicalComposer). `canEdit` false (a viewer): chat only, the agent mode is not offered.
 */
export function AssistantPanel({
  documentId,
  userId,
  userName,
  mentionNames = [],
  canEdit = true,
  canComment = canEdit,
}: {
  documentId: string;
  userId: string;
  /** The writer's name: the agent's suggestions are "Coauthor for <name>". */
  userName: string;
  /** The names a comment mentions the writer by (`@name`): the Comments button marks those threads. */
  mentionNames?: readonly string[];
  canEdit?: boolean;
  /** Owners, editors and commenters add and reply to comments. */
  canComment?: boolean;
}) {
  const [editor] = useLexicalComposerContext();
  const { open, setOpen, openNow, openAndFocus, togglePanel, closeSheet, panel, toggle } = usePanelOpen();
  const [chosenMode, setMode] = useState<RunMode>(canEdit ? "agent" : "chat");
  const mode: RunMode = canEdit ? chosenMode : "chat";
  const modes = canEdit ? MODES : MODES.filter((option) => option.mode === "chat");
  const [model, setModel] = useState("");
  const [prompt, setPrompt] = useState("");
  const [view, setView] = useState<PanelView>("conversation");
  const toggleView = (next: PanelView) => setView((current) => (current === next ? "conversation" : next));
  const [openRunId, setOpenRunId] = useState<string | null>(null);
  const { editMode, setEditMode, suggestAs, agentAs } = useAgentEditMode(userId, userName, documentId);
  const review = useRunReview({ suggestAs, agentAs });
  const plan = usePlanChecklist();
  const pipeline = usePipelineTree();
  const [recipeId, setRecipeId] = useState("");
  const run = useAgentRun({
    documentId,
    executeTool: review.executeTool,
    onAgentActiveChange: review.onAgentActiveChange,
    onRunEvent: (event) => {
      review.onRunEvent(event);
      plan.onRunEvent(event);
      pipeline.onRunEvent(event);
    },
    lookupBlocks: (ids) => readBlockInfos(editor, ids),
  });
  const reveal = useCallback((blockId: string) => revealBlock(editor, blockId), [editor]);
  const comments = useCommentRequests(
    useCallback(() => {
      setOpen(true);
      setView("comments");
    }, []),
  );
  const commentCounts = useCommentBadge(mentionNames);
  const statusText = describeStatus(run.status);
  // A pipeline's agents each keep their own conversation: a pipeline is not continued (yet).
  const continueRunId = canEdit && !pipeline.pipeline ? continuableRun(run.status) : null;
  useRunAnnouncements(run.items, run.status);
  const promptBox = useRef<HTMLTextAreaElement>(null);
  const modelPicker = useRef<HTMLSelectElement>(null);
  const recipePicker = useRef<HTMLSelectElement>(null);
  const shortcutsDialog = useRef<HTMLDialogElement>(null);

  // After a decision on the run, the writer is back in the prompt.
  const thenFocusPrompt = (action: () => void) => () => {
    action();
    promptBox.current?.focus();
  };
  const keep = thenFocusPrompt(review.keep);
  const undoRun = thenFocusPrompt(review.undoRun);
  const canReview = review.offer !== null && !run.isRunning;
  const stopRun = () => {
    run.stop();
    pipeline.stopped();
  };
  const onAction = (action: PanelAction) => {
    switch (action) {
      case "focus-prompt":
        return openAndFocus(promptBox);
      case "choose-model":
        return openAndFocus(modelPicker);
      case "choose-recipe":
        if (!canEdit) return;
        flushSync(() => setMode("agent"));
        return openAndFocus(recipePicker);
      case "toggle-mode":
        return canEdit ? setMode(mode === "agent" ? "chat" : "agent") : undefined;
      case "toggle-history":
        openNow();
        return toggleView("history");
      case "keep":
        return canReview ? keep() : undefined;
      case "undo-run":
        return canReview ? undoRun() : undefined;
      case "continue":
        return continueRunId && !run.isRunning ? continueRun(continueRunId) : undefined;
      case "toggle-panel":
        return togglePanel();
      case "next-suggestion":
      case "previous-suggestion": {
        const blockId = adjacentSuggestionBlock(editor, action === "next-suggestion" ? "next" : "previous");
        return blockId === null ? undefined : void reveal(blockId);
      }
    }
  };
  const onPanelKeyDown = usePanelKeyboard({
    panel,
    prompt: promptBox,
    shortcutsDialog,
    isRunning: run.isRunning,
    onAction,
    onEscape: () => {
      if (!run.isRunning) return closeSheet();
      stopRun();
      return true;
    },
  });

  /** A new run starts on a clear panel: the last run's review, plan and pipeline go. */
  const clearForRun = () => {
    review.dismiss();
    plan.clear();
    pipeline.clear();
    setView("conversation");
  };

  const submit = (background = false) => {
    const text = prompt.trim();
    if (!text) return;
    setPrompt("");
    clearForRun();
    void run.send({
      prompt: text,
      mode,
      model: model || undefined,
      selection: readSelectionContext(editor),
      recipeId: mode === "agent" && recipeId ? recipeId : undefined,
      editMode: mode === "agent" ? editMode : undefined,
      background: mode === "agent" && background,
    });
  };

  /** Picks up the run that stopped early, with its whole conversation, in a new run. */
  const continueRun = (runId: string) => {
    clearForRun();
    void run.send({
      prompt: "Continue.",
      mode: "agent",
      model: model || undefined,
      continueRunId: runId,
      editMode,
    });
  };

  return (
    <aside
      ref={panel}
      className={open ? "assistant-panel" : "assistant-panel collapsed"}
      data-testid="assistant-panel"
      aria-label="Assistant"
      onKeyDown={onPanelKeyDown}
    >
      <PanelHeader
        open={open}
        view={view}
        toggleRef={toggle}
        onToggleView={toggleView}
        onShowShortcuts={() => shortcutsDialog.current?.showModal()}
        onTogglePanel={togglePanel}
        badges={{ comments: <CommentBadge {...commentCounts} /> }}
      />
      {/* Not a live region: the announcer reads the run's summaries (run-announcements.ts). */}
      <p className={`assistant-status status-${run.status.phase}`} data-testid="assistant-status">
        {statusText}
      </p>
      <div id="assistant-body" className="assistant-body" hidden={!open}>
        <div className="assistant-controls">
          <ModeSwitch
            label="Assistant mode"
            testIdPrefix="assistant-mode-"
            options={modes}
            value={mode}
            onChange={setMode}
            hintAsName
            keyShortcuts="Alt+Shift+M"
          />
          <ModelPicker value={model} onChange={setModel} selectRef={modelPicker} />
        </div>
        {mode === "agent" ? (
          <AgentOptions
            documentId={documentId}
            editMode={editMode}
            onEditModeChange={setEditMode}
            recipeId={recipeId}
            onRecipeChange={setRecipeId}
            recipePicker={recipePicker}
          />
        ) : null}
        {view === "comments" ? (
          <CommentsView
            documentId={documentId}
            userId={userId}
            canComment={canComment}
            canResolveAll={canEdit}
            draft={comments.draft}
            onDraftDone={comments.clearDraft}
            opened={comments.opened}
          />
        ) : view === "versions" ? (
          <VersionHistory documentId={documentId} canEdit={canEdit} />
        ) : view === "history" ? (
          <RunHistory
            documentId={documentId}
            openRunId={openRunId}
            onOpen={setOpenRunId}
            onUndo={canEdit ? review.undoStoredRun : undefined}
            canDeleteLogs={canEdit}
            onReveal={reveal}
            userId={userId}
          />
        ) : (
          <ConversationView
            documentId={documentId}
            canDecide={canEdit}
            onReveal={reveal}
            plan={plan.plan}
            pipeline={pipeline.pipeline}
            run={run}
          />
        )}
        {canReview && review.offer !== null ? (
          <RunReviewBar changes={review.offer} onKeep={keep} onUndo={undoRun} />
        ) : null}
        {review.report !== null ? (
          <UndoReport report={review.report} onDismiss={thenFocusPrompt(review.dismiss)} />
        ) : null}
        <PromptForm
          mode={mode}
          prompt={prompt}
          promptRef={promptBox}
          isRunning={run.isRunning}
          onPromptChange={setPrompt}
          onSubmit={() => submit()}
          onSubmitInBackground={mode === "agent" ? () => submit(true) : undefined}
          onStop={stopRun}
          onContinue={continueRunId ? () => continueRun(continueRunId) : undefined}
        />
      </div>
      <ShortcutsDialog dialogRef={shortcutsDialog} />
    </aside>
  );
}
