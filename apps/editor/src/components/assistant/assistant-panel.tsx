"use client";

import type { SuggestionAuthor } from "@coauthor/tools";
import type { EditMode, RecipeInfo, RunMode } from "@coauthor/types";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { COMMAND_PRIORITY_EDITOR } from "lexical";
import { useCallback, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { CommentBadge } from "../comments/comment-badge";
import { type CommentTarget, START_COMMENT_COMMAND } from "../comments/comment-selection";
import { CommentsView } from "../comments/comments-view";
import { useCommentBadge } from "../comments/use-comment-badge";
import { readBlockInfos } from "../editor/block-info";
import { revealBlock } from "../editor/reveal-block";
import { ClearConversation } from "./clear-conversation";
import { continuableRun, describeStatus } from "./conversation";
import { useEditMode } from "./edit-mode";
import { readSelectionContext } from "./editor-bridge";
import { MessageList } from "./message-list";
import { type ModeOption, ModeSwitch } from "./mode-switch";
import { ModelPicker } from "./model-picker";
import { PanelHeader, type PanelView } from "./panel-header";
import type { PanelAction } from "./panel-shortcuts";
import { PipelineTree, usePipelineTree } from "./pipeline-tree";
import { PlanChecklist, usePlanChecklist } from "./plan-checklist";
import { PromptForm } from "./prompt-form";
import { RecipeEditor } from "./recipe-editor";
import { RecipePicker } from "./recipe-picker";
import { useRunAnnouncements } from "./run-announcements";
import { RunHistory } from "./run-history";
import { reportEditMode } from "./run-lease";
import { RunReviewBar, UndoReport } from "./run-review-bar";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { adjacentSuggestionBlock } from "./suggestion-navigation";
import { SuggestionReview } from "./suggestion-review";
import { useAgentRun } from "./use-agent-run";
import { usePanelKeyboard } from "./use-panel-keyboard";
import { useRunReview } from "./use-run-review";
import { VersionHistory } from "./version-history";

/** Below this width the panel is a sheet over the document, closed until the writer opens it. */
const SHEET_QUERY = "(max-width: 767px)";

const MODES: ModeOption<RunMode>[] = [
  { mode: "agent", label: "Agent", hint: "Agent mode: the assistant edits the document" },
  { mode: "chat", label: "Chat", hint: "Chat mode: the assistant answers; the document does not change" },
];

const EDIT_MODES: ModeOption<EditMode>[] = [
  { mode: "suggest", label: "Suggest", hint: "The agent's edits arrive as suggestions to accept or reject" },
  { mode: "direct", label: "Edit directly", hint: "The agent's edits land in the document at once" },
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
  // The panel renders in the browser only (after the document query), so the width is known here.
  const [open, setOpen] = useState(
    () => typeof window === "undefined" || !window.matchMedia(SHEET_QUERY).matches,
  );
  const [chosenMode, setMode] = useState<RunMode>(canEdit ? "agent" : "chat");
  const mode: RunMode = canEdit ? chosenMode : "chat";
  const modes = canEdit ? MODES : MODES.filter((option) => option.mode === "chat");
  const [model, setModel] = useState("");
  const [prompt, setPrompt] = useState("");
  const [view, setView] = useState<PanelView>("conversation");
  /** The text a new comment thread is being written on (the toolbar's Comment), or null. */
  const [commentDraft, setCommentDraft] = useState<CommentTarget | null>(null);
  const toggleView = (next: PanelView) => setView((current) => (current === next ? "conversation" : next));
  const [openRunId, setOpenRunId] = useState<string | null>(null);
  const [editMode, setEditMode] = useEditMode(userId, documentId);
  // Read at each tool call: switching the mode takes effect from the run's next write.
  const suggestAs = useRef<((runId: string) => SuggestionAuthor) | null>(null);
  suggestAs.current =
    editMode === "suggest"
      ? (runId) => ({ authorId: userId, authorName: `Coauthor for ${userName}`, runId })
      : null;
  useEffect(() => reportEditMode(editMode), [editMode]);
  const review = useRunReview({ suggestAs });
  const plan = usePlanChecklist();
  const pipeline = usePipelineTree();
  const [recipeId, setRecipeId] = useState("");
  /** The recipe being written or changed (null: a new one); undefined: the editor is closed. */
  const [editing, setEditing] = useState<RecipeInfo | null | undefined>(undefined);
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
  // The toolbar's Comment (and Ctrl+Alt+M) opens the Comments view on a new thread's form.
  useEffect(
    () =>
      editor.registerCommand(
        START_COMMENT_COMMAND,
        (target) => {
          setOpen(true);
          setView("comments");
          setCommentDraft(target);
          return true;
        },
        COMMAND_PRIORITY_EDITOR,
      ),
    [editor],
  );
  const commentCounts = useCommentBadge(mentionNames);
  const statusText = describeStatus(run.status);
  // A pipeline's agents each keep their own conversation: a pipeline is not continued (yet).
  const continueRunId = canEdit && !pipeline.pipeline ? continuableRun(run.status) : null;
  useRunAnnouncements(run.items, run.status);
  const panel = useRef<HTMLElement>(null);
  const promptBox = useRef<HTMLTextAreaElement>(null);
  const modelPicker = useRef<HTMLSelectElement>(null);
  const recipePicker = useRef<HTMLSelectElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const shortcutsDialog = useRef<HTMLDialogElement>(null);

  /** Opens the panel and focuses `target` in it (rendered first: a closed panel's body is hidden). */
  const openAndFocus = (target: { current: HTMLElement | null }) => {
    flushSync(() => setOpen(true));
    target.current?.focus();
  };
  const keep = () => {
    review.keep();
    promptBox.current?.focus();
  };
  const undoRun = () => {
    review.undoRun();
    promptBox.current?.focus();
  };
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
        flushSync(() => setOpen(true));
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
  const togglePanel = () => {
    const focusInside = panel.current?.contains(document.activeElement) === true;
    flushSync(() => setOpen(!open));
    // Focus in the body that just closed would fall to the top of the page; the toggle stays.
    if (open && focusInside) toggle.current?.focus();
  };
  const onPanelKeyDown = usePanelKeyboard({
    panel,
    prompt: promptBox,
    shortcutsDialog,
    isRunning: run.isRunning,
    onAction,
    onEscape: () => {
      if (run.isRunning) stopRun();
      else if (open && window.matchMedia(SHEET_QUERY).matches) togglePanel();
      else return false;
      return true;
    },
  });

  const submit = () => {
    const text = prompt.trim();
    if (!text) return;
    setPrompt("");
    review.dismiss();
    plan.clear();
    pipeline.clear();
    setView("conversation");
    void run.send({
      prompt: text,
      mode,
      model: model || undefined,
      selection: readSelectionContext(editor),
      recipeId: mode === "agent" && recipeId ? recipeId : undefined,
      editMode: mode === "agent" ? editMode : undefined,
    });
  };

  /** Picks up the run that stopped early, with its whole conversation, in a new run. */
  const continueRun = (runId: string) => {
    review.dismiss();
    plan.clear();
    pipeline.clear();
    setView("conversation");
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
          <ModeSwitch
            label="How the agent edits"
            className="mode-switch edit-mode-switch"
            testIdPrefix="edit-mode-"
            options={EDIT_MODES}
            value={editMode}
            onChange={setEditMode}
          />
        ) : null}
        {mode === "agent" ? (
          <RecipePicker
            documentId={documentId}
            value={recipeId}
            onChange={setRecipeId}
            onEdit={setEditing}
            selectRef={recipePicker}
          />
        ) : null}
        {editing !== undefined ? (
          <RecipeEditor
            key={editing?.id ?? "new"}
            documentId={documentId}
            recipe={editing}
            onClose={() => setEditing(undefined)}
            onSaved={(saved) => {
              setEditing(undefined);
              setRecipeId(saved.id);
            }}
          />
        ) : null}
        {view === "comments" ? (
          <CommentsView
            documentId={documentId}
            userId={userId}
            canComment={canComment}
            canResolveAll={canEdit}
            draft={commentDraft}
            onDraftDone={() => setCommentDraft(null)}
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
          <>
            <SuggestionReview canDecide={canEdit} onReveal={reveal} />
            <PlanChecklist plan={plan.plan} />
            <PipelineTree pipeline={pipeline.pipeline} />
            <MessageList items={run.items} onReveal={reveal} />
            {run.items.length > 0 ? (
              <ClearConversation documentId={documentId} disabled={run.isRunning} onCleared={run.clear} />
            ) : null}
          </>
        )}
        {canReview && review.offer !== null ? (
          <RunReviewBar changes={review.offer} onKeep={keep} onUndo={undoRun} />
        ) : null}
        {review.report !== null ? (
          <UndoReport
            report={review.report}
            onDismiss={() => {
              review.dismiss();
              promptBox.current?.focus();
            }}
          />
        ) : null}
        <PromptForm
          mode={mode}
          prompt={prompt}
          promptRef={promptBox}
          isRunning={run.isRunning}
          onPromptChange={setPrompt}
          onSubmit={submit}
          onStop={stopRun}
          onContinue={continueRunId ? () => continueRun(continueRunId) : undefined}
        />
      </div>
      <ShortcutsDialog dialogRef={shortcutsDialog} />
    </aside>
  );
}
