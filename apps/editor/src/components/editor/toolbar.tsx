"use client";

import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useLexicalEditable } from "@lexical/react/useLexicalEditable";
import { FORMAT_TEXT_COMMAND, REDO_COMMAND, UNDO_COMMAND } from "lexical";
import { type MouseEvent, type ReactNode, useEffect, useState } from "react";
import { OPEN_LINK_EDITOR_COMMAND } from "./link-editor/link-commands";
import { setBlockType } from "./toolbar-actions";
import {
  type BlockType,
  INITIAL_TOOLBAR_STATE,
  registerToolbarState,
  TOOLBAR_FORMATS,
  type ToolbarFormat,
} from "./toolbar-state";

const BLOCK_LABELS: Record<BlockType, string> = {
  paragraph: "Paragraph",
  h1: "Heading 1",
  h2: "Heading 2",
  h3: "Heading 3",
  h4: "Heading 4",
  h5: "Heading 5",
  h6: "Heading 6",
  quote: "Quote",
  code: "Code block",
  bullet: "Bulleted list",
  number: "Numbered list",
};
const BLOCK_CHOICES: BlockType[] = ["paragraph", "h1", "h2", "h3", "bullet", "number", "quote", "code"];

const FORMAT_BUTTONS: Record<ToolbarFormat, { label: string; icon: ReactNode }> = {
  bold: { label: "Bold", icon: <strong>B</strong> },
  italic: { label: "Italic", icon: <em>I</em> },
  underline: { label: "Underline", icon: <u>U</u> },
  strikethrough: { label: "Strikethrough", icon: <s>S</s> },
  code: { label: "Inline code", icon: <code>{"<>"}</code> },
};

// Keeps the editor's selection when a toolbar button is clicked.
const keepSelection = (event: MouseEvent) => event.preventDefault();

/**
 * Formatting toolbar: block type, inline formats, link, undo/redo; disabled while the editor is
 * read-only. `children` come after them (the Comment button, which a commenter's read-only copy keeps).
 */
export function Toolbar({ children }: { children?: ReactNode }) {
  const [editor] = useLexicalComposerContext();
  const editable = useLexicalEditable();
  const [state, setState] = useState(INITIAL_TOOLBAR_STATE);
  useEffect(() => registerToolbarState(editor, setState), [editor]);

  return (
    <div className="toolbar" role="toolbar" aria-label="Formatting">
      <button
        type="button"
        className="tool"
        aria-label="Undo"
        disabled={!editable || !state.canUndo}
        onMouseDown={keepSelection}
        onClick={() => editor.dispatchCommand(UNDO_COMMAND, undefined)}
      >
        ↶
      </button>
      <button
        type="button"
        className="tool"
        aria-label="Redo"
        disabled={!editable || !state.canRedo}
        onMouseDown={keepSelection}
        onClick={() => editor.dispatchCommand(REDO_COMMAND, undefined)}
      >
        ↷
      </button>
      <span className="toolbar-divider" />
      <select
        className="tool-select"
        aria-label="Block type"
        disabled={!editable}
        value={state.blockType}
        onChange={(event) => setBlockType(editor, state.blockType, event.target.value as BlockType)}
      >
        {BLOCK_CHOICES.map((type) => (
          <option key={type} value={type}>
            {BLOCK_LABELS[type]}
          </option>
        ))}
        {BLOCK_CHOICES.includes(state.blockType) ? null : (
          <option value={state.blockType}>{BLOCK_LABELS[state.blockType]}</option>
        )}
      </select>
      <span className="toolbar-divider" />
      {TOOLBAR_FORMATS.map((format) => (
        <button
          key={format}
          type="button"
          className="tool"
          aria-label={FORMAT_BUTTONS[format].label}
          aria-pressed={state.formats[format]}
          disabled={!editable}
          onMouseDown={keepSelection}
          onClick={() => editor.dispatchCommand(FORMAT_TEXT_COMMAND, format)}
        >
          {FORMAT_BUTTONS[format].icon}
        </button>
      ))}
      <button
        type="button"
        className="tool"
        aria-label={state.isLink ? "Edit link" : "Add link"}
        aria-keyshortcuts="Control+K Meta+K"
        aria-pressed={state.isLink}
        disabled={!editable}
        onMouseDown={keepSelection}
        onClick={() => editor.dispatchCommand(OPEN_LINK_EDITOR_COMMAND, undefined)}
      >
        Link
      </button>
      {children}
    </div>
  );
}
