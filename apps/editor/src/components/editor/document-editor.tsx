"use client";

import { editorNodes, MAX_LIST_INDENT, markdownShortcutTransformers } from "@coauthor/tools";
import { LexicalCollaboration } from "@lexical/react/LexicalCollaborationContext";
import { type InitialConfigType, LexicalComposer } from "@lexical/react/LexicalComposer";
import { ContentEditable } from "@lexical/react/LexicalContentEditable";
import { EditorRefPlugin } from "@lexical/react/LexicalEditorRefPlugin";
import { LexicalErrorBoundary } from "@lexical/react/LexicalErrorBoundary";
import { LinkPlugin } from "@lexical/react/LexicalLinkPlugin";
import { ListPlugin } from "@lexical/react/LexicalListPlugin";
import { MarkdownShortcutPlugin } from "@lexical/react/LexicalMarkdownShortcutPlugin";
import { RichTextPlugin } from "@lexical/react/LexicalRichTextPlugin";
import { TabIndentationPlugin } from "@lexical/react/LexicalTabIndentationPlugin";
import type { LexicalEditor } from "lexical";
import type { ReactNode, RefObject } from "react";
import { CommentButton } from "../comments/comment-button";
import { CommentMargin } from "../comments/comment-margin";
import { CommentThreadsProvider } from "../comments/use-comment-threads";
import { AgentLiveProvider } from "./agent-live-context";
import { AgentPreview } from "./agent-preview";
import { AgentRemovalTraces } from "./agent-removal-traces";
import { AuthorshipPlugin, AuthorshipToggle } from "./authorship";
import { CopyStateRef } from "./copy-state";
import { JumpToChange } from "./jump-to-change";
import { FloatingLinkEditorPlugin } from "./link-editor/floating-link-editor";
import { AgentPresencePlugin } from "./plugins/agent-presence-plugin";
import { BlockIdsPlugin } from "./plugins/block-ids-plugin";
import { DocumentCollaboration } from "./plugins/collaboration-plugin";
import { FocusOnOpenPlugin } from "./plugins/focus-on-open-plugin";
import { MarkdownPastePlugin } from "./plugins/markdown-paste-plugin";
import { SuggestionsPlugin } from "./plugins/suggestions-plugin";
import { TabFocusPlugin } from "./plugins/tab-focus-plugin";
import { TextControlFilterPlugin } from "./plugins/text-control-filter-plugin";
import { PresenceList } from "./presence-list";
import { SuggestionCard } from "./suggestion-card";
import type { SyncState } from "./sync-state";
import { editorTheme } from "./theme";
import { Toolbar } from "./toolbar";
import { isSafeUrl } from "./toolbar-actions";
import { useWritingMode, WritingModeSwitch } from "./writing-mode";

interface DocumentEditorProps {
  documentId: string;
  /** The signed-in writer (their name and colour mark their cursor in other copies). */
  user: { id: string; name: string };
  /** The document's Yjs state sent with the page (base64), applied before the first sync; or null. */
  initialState?: string | null;
  onSyncStateChange: (state: SyncState) => void;
  /** Rendered beside the editor inside the composer, so it can reach the editor (the assistant panel). */
  aside?: ReactNode;
  /** A viewer's or commenter's copy: not editable (the server also drops their updates). */
  readOnly?: boolean;
  /** Owners, editors and commenters get the toolbar's Comment. */
  canComment?: boolean;
  /** Set to the Lexical editor, so the page can put focus in the document (e.g. after Enter in the title). */
  editorRef?: RefObject<LexicalEditor | null>;
  /** Set to a reader of this copy's Yjs state (useCopyState), for requests sent from outside the editor. */
  copyStateRef?: RefObject<(() => string) | null>;
}

/**
 * The rich-text document editor with toolbar, Markdown shortcuts and block ids, bound to the
 * shared Yjs document: every copy of the document sees every edit live.
 */
export function DocumentEditor({
  documentId,
  user,
  initialState = null,
  onSyncStateChange,
  aside,
  readOnly = false,
  canComment = !readOnly,
  editorRef,
  copyStateRef,
}: DocumentEditorProps) {
  const [writingMode, chooseWritingMode] = useWritingMode(user.id, documentId);
  const initialConfig: InitialConfigType = {
    namespace: "coauthor-document",
    theme: editorTheme,
    nodes: [...editorNodes],
    // The content comes from the Yjs document, never from an initial state (that would be seeded twice).
    editorState: null,
    // Editable once the first sync is done (DocumentCollaboration), unless read-only.
    editable: false,
    onError: (error) => {
      // Lexical reports update errors here after discarding the failed update; the editor stays usable.
      console.error("[editor]", error);
    },
  };

  return (
    <LexicalCollaboration>
      <LexicalComposer initialConfig={initialConfig}>
        <AgentLiveProvider
          documentId={documentId}
          userId={user.id}
          writerName={user.name}
          initialState={initialState}
        >
          <CommentThreadsProvider>
            <div className="workspace-body">
              <div className="editor-column">
                <PresenceList />
                <Toolbar>
                  {readOnly ? null : (
                    <WritingModeSwitch user={user} mode={writingMode} onChoose={chooseWritingMode} />
                  )}
                  {canComment ? <CommentButton /> : null}
                  <AuthorshipToggle />
                </Toolbar>
                <div className="editor-shell">
                  <RichTextPlugin
                    contentEditable={
                      <ContentEditable
                        className="editor-content"
                        data-testid="document-editor"
                        aria-label="Document"
                        aria-placeholder="Start writing…"
                        aria-describedby="editor-keyboard-hint"
                        placeholder={<div className="editor-placeholder">Start writing…</div>}
                      />
                    }
                    ErrorBoundary={LexicalErrorBoundary}
                  />
                  <SuggestionCard
                    documentId={documentId}
                    canDecide={!readOnly && writingMode !== "viewing"}
                  />
                  <CommentMargin />
                  <AgentPreview />
                  <FloatingLinkEditorPlugin />
                  <AgentRemovalTraces />
                  <JumpToChange />
                </div>
                <p id="editor-keyboard-hint" className="editor-hint" data-testid="editor-keyboard-hint">
                  Tab moves to the next control; in lists, code and tables it indents (Esc, then Tab, leaves
                  them). Outside text fields, ? lists the keyboard shortcuts.
                </p>
              </div>
              {aside}
            </div>
          </CommentThreadsProvider>
          <AgentPresencePlugin writerName={user.name} />
          <ListPlugin />
          <LinkPlugin validateUrl={isSafeUrl} />
          <TabFocusPlugin />
          {/* Lexical's cap is exclusive: indents stop at MAX_LIST_INDENT, within the content rule's depth. */}
          <TabIndentationPlugin maxIndent={MAX_LIST_INDENT + 1} />
          <TextControlFilterPlugin />
          <FocusOnOpenPlugin />
          {editorRef ? <EditorRefPlugin editorRef={editorRef} /> : null}
          {copyStateRef ? <CopyStateRef target={copyStateRef} /> : null}
          <MarkdownShortcutPlugin transformers={markdownShortcutTransformers} />
          <MarkdownPastePlugin />
          <BlockIdsPlugin />
          <SuggestionsPlugin />
          <AuthorshipPlugin user={user} />
          <DocumentCollaboration
            documentId={documentId}
            user={user}
            onSyncStateChange={onSyncStateChange}
            readOnly={readOnly || writingMode === "viewing"}
          />
        </AgentLiveProvider>
      </LexicalComposer>
    </LexicalCollaboration>
  );
}
