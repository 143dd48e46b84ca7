"use client";

import { linkUrlSchema } from "@coauthor/types";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useLexicalEditable } from "@lexical/react/useLexicalEditable";
import { mergeRegister } from "@lexical/utils";
import { type BaseSelection, COMMAND_PRIORITY_NORMAL, KEY_DOWN_COMMAND, type LexicalEditor } from "lexical";
import { type FormEvent, type KeyboardEvent, useCallback, useEffect, useRef, useState } from "react";
import {
  $canEditLink,
  $selectedLink,
  $visibleSelection,
  applyLink,
  OPEN_LINK_EDITOR_COMMAND,
} from "./link-commands";
import "./link-editor.css";

interface Place {
  top: number;
  left: number;
}

type LinkEditorState =
  | { mode: "closed" }
  | { mode: "view"; url: string; place: Place }
  | { mode: "edit"; url: string; place: Place };

/** Where the floating box goes: just below the selection, inside the editor's scrolling shell. */
function placeBelowSelection(editor: LexicalEditor): Place | null {
  const shell = editor.getRootElement()?.parentElement;
  const range = window.getSelection()?.rangeCount ? window.getSelection()?.getRangeAt(0) : null;
  if (!shell || !range) return null;
  const shellRect = shell.getBoundingClientRect();
  let rect = range.getBoundingClientRect();
  // A collapsed caret can have an empty rectangle; its element's then.
  if (rect.width === 0 && rect.height === 0 && range.startContainer.parentElement)
    rect = range.startContainer.parentElement.getBoundingClientRect();
  const left = Math.max(8, Math.min(rect.left - shellRect.left, shellRect.width - 340));
  return { top: rect.bottom - shellRect.top + shell.scrollTop + 6, left };
}

const isLinkShortcut = (event: globalThis.KeyboardEvent) =>
  event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;

/**
 * The floating link editor (the Lexical playground's pattern): with text selected, the toolbar's
 * Link button or Ctrl/Cmd+K opens a small input below the selection to enter the address; with
 * the caret in a link, a box shows its address with Edit and Remove. Only http, https and mailto
 * addresses are accepted (linkUrlSchema); Esc closes without change and returns to the text.
 */
export function FloatingLinkEditorPlugin() {
  const [editor] = useLexicalComposerContext();
  const editable = useLexicalEditable();
  const [state, setState] = useState<LinkEditorState>({ mode: "closed" });
  const [error, setError] = useState<string | null>(null);
  const saved = useRef<BaseSelection | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const editing = state.mode === "edit";
  // Read by the update listener, which must not replace the open input with the view box.
  const editingRef = useRef(false);

  const openEditor = useCallback((): boolean => {
    const current = editor.getEditorState().read(
      () => {
        const selection = $visibleSelection(editor);
        return {
          can: $canEditLink(selection),
          url: $selectedLink(selection)?.getURL() ?? "",
          selection: selection?.clone() ?? null,
        };
      },
      { editor },
    );
    if (!editor.isEditable() || !current.can) return false;
    const place = placeBelowSelection(editor) ?? { top: 8, left: 8 };
    saved.current = current.selection;
    editingRef.current = true;
    setError(null);
    setState({ mode: "edit", url: current.url, place });
    return true;
  }, [editor]);

  // The view box follows the caret: shown while it is in a link and focus is in the editor or the box.
  const follow = useCallback(() => {
    if (editingRef.current) return;
    const url = editor.getEditorState().read(() => $selectedLink()?.getURL() ?? null);
    const focused = document.activeElement;
    const focusHere = Boolean(
      focused && (editor.getRootElement()?.contains(focused) || box.current?.contains(focused)),
    );
    const place = url !== null && focusHere ? placeBelowSelection(editor) : null;
    setState(url !== null && place ? { mode: "view", url, place } : { mode: "closed" });
  }, [editor]);

  useEffect(
    () =>
      mergeRegister(
        editor.registerUpdateListener(follow),
        editor.registerCommand(
          KEY_DOWN_COMMAND,
          (event) => {
            if (!isLinkShortcut(event)) return false;
            event.preventDefault();
            openEditor();
            return true;
          },
          COMMAND_PRIORITY_NORMAL,
        ),
        editor.registerCommand(OPEN_LINK_EDITOR_COMMAND, openEditor, COMMAND_PRIORITY_NORMAL),
      ),
    [editor, follow, openEditor],
  );

  const close = (backToText: boolean) => {
    editingRef.current = false;
    setState({ mode: "closed" });
    setError(null);
    // Back in the text, the view box shows the link the caret is in (if any).
    if (backToText) editor.focus(follow);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get("url") ?? "");
    // Emptying the address of an existing link removes it.
    if (value.trim() === "" && state.mode === "edit" && state.url !== "") {
      applyLink(editor, saved.current, null);
      close(true);
      return;
    }
    const parsed = linkUrlSchema.safeParse(value);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Not a valid link address");
      return;
    }
    applyLink(editor, saved.current, parsed.data);
    close(true);
  };

  const remove = () => {
    applyLink(editor, editing ? saved.current : null, null);
    close(true);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    // Esc closes the link editor only (not a dialog around it, not a run).
    event.preventDefault();
    event.stopPropagation();
    close(true);
  };

  if (state.mode === "closed") return null;
  const style = { top: state.place.top, left: state.place.left };
  if (state.mode === "view")
    return (
      // biome-ignore lint/a11y/noStaticElementInteractions: Esc handling for the buttons inside
      <div ref={box} className="link-editor" style={style} data-testid="link-view" onKeyDown={onKeyDown}>
        <a href={state.url} target="_blank" rel="noopener noreferrer" className="link-editor-url">
          {state.url}
        </a>
        {editable ? (
          <span className="link-editor-actions">
            <button type="button" className="button" onMouseDown={keepSelection} onClick={openEditor}>
              Edit
            </button>
            <button type="button" className="button" onMouseDown={keepSelection} onClick={remove}>
              Remove
            </button>
          </span>
        ) : null}
      </div>
    );

  return (
    <div ref={box} className="link-editor" style={style} data-testid="link-editor">
      <form className="link-editor-form" aria-label="Link" onSubmit={submit} onKeyDown={onKeyDown}>
        <input
          // biome-ignore lint/a11y/noAutofocus: the writer asked for this input (Ctrl+K or the Link button)
          autoFocus
          className="input"
          name="url"
          type="text"
          inputMode="url"
          maxLength={2048}
          aria-label="Link address"
          aria-invalid={error !== null}
          aria-describedby={error ? "link-editor-error" : undefined}
          placeholder="https://…"
          defaultValue={state.url}
        />
        <button type="submit" className="button primary">
          Save
        </button>
        {state.url ? (
          <button type="button" className="button" onClick={remove}>
            Remove link
          </button>
        ) : null}
        <button type="button" className="button" onClick={() => close(true)}>
          Cancel
        </button>
      </form>
      {error ? (
        <p id="link-editor-error" role="alert" className="error small">
          {error}
        </p>
      ) : null}
    </div>
  );
}

// Keeps the editor's selection when a box button is clicked with the mouse.
const keepSelection = (event: { preventDefault(): void }) => event.preventDefault();
