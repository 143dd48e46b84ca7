"use client";

import { editorNodes, markdownTransformers } from "@coauthor/tools";
import { type InitialConfigType, LexicalComposer } from "@lexical/react/LexicalComposer";
import { ContentEditable } from "@lexical/react/LexicalContentEditable";
import { LexicalErrorBoundary } from "@lexical/react/LexicalErrorBoundary";
import { LinkPlugin } from "@lexical/react/LexicalLinkPlugin";
import { ListPlugin } from "@lexical/react/LexicalListPlugin";
import { MarkdownShortcutPlugin } from "@lexical/react/LexicalMarkdownShortcutPlugin";
import { RichTextPlugin } from "@lexical/react/LexicalRichTextPlugin";
import { TabIndentationPlugin } from "@lexical/react/LexicalTabIndentationPlugin";
import type { ReactNode } from "react";
import { AgentLiveProvider } from "./agent-live-context";
import { AgentLockHint } from "./agent-lock-hint";
import { AgentPreview } from "./agent-preview";
import type { SaveState } from "./autosave";
import { AgentEditsPlugin } from "./plugins/agent-edits-plugin";
import { AutosavePlugin } from "./plugins/autosave-plugin";
import { BlockIdsPlugin } from "./plugins/block-ids-plugin";
import { editorTheme } from "./theme";
import { Toolbar } from "./toolbar";
import { isSafeUrl } from "./toolbar-actions";

interface DocumentEditorProps {
  documentId: string;
  /** Serialized Lexical editor state, or null for a new document (one empty paragraph). */
  initialContent: string | null;
  onSaveStateChange: (state: SaveState) => void;
  /** Rendered beside the editor inside the composer, so it can reach the editor (the assistant panel). */
  aside?: ReactNode;
  /** A viewer's copy: not editable and never saved. */
  readOnly?: boolean;
}

/** The rich-text document editor with toolbar, Markdown shortcuts, block ids and autosave. */
export function DocumentEditor({
  documentId,
  initialContent,
  onSaveStateChange,
  aside,
  readOnly = false,
}: DocumentEditorProps) {
  const initialConfig: InitialConfigType = {
    namespace: "coauthor-document",
    theme: editorTheme,
    nodes: [...editorNodes],
    editorState: initialContent ?? undefined,
    editable: !readOnly,
    onError: (error) => {
      // Lexical reports update errors here after discarding the failed update; the editor stays usable.
      console.error("[editor]", error);
    },
  };

  return (
    <LexicalComposer initialConfig={initialConfig}>
      <AgentLiveProvider>
        <div className="workspace-body">
          <div className="editor-column">
            <Toolbar />
            <AgentLockHint />
            <div className="editor-shell">
              <RichTextPlugin
                contentEditable={
                  <ContentEditable
                    className="editor-content"
                    data-testid="document-editor"
                    aria-label="Document"
                    aria-placeholder="Start writing…"
                    placeholder={<div className="editor-placeholder">Start writing…</div>}
                  />
                }
                ErrorBoundary={LexicalErrorBoundary}
              />
              <AgentPreview />
            </div>
          </div>
          {aside}
        </div>
        <AgentEditsPlugin />
        <ListPlugin />
        <LinkPlugin validateUrl={isSafeUrl} />
        <TabIndentationPlugin />
        <MarkdownShortcutPlugin transformers={markdownTransformers} />
        <BlockIdsPlugin />
        {readOnly ? null : <AutosavePlugin documentId={documentId} onStateChange={onSaveStateChange} />}
      </AgentLiveProvider>
    </LexicalComposer>
  );
}
