import { $isLinkNode, $toggleLink, type LinkNode } from "@lexical/link";
import { $findMatchingParent } from "@lexical/utils";
import {
  $createRangeSelectionFromDom,
  $getNodeByKey,
  $getSelection,
  $isRangeSelection,
  $setSelection,
  type BaseSelection,
  createCommand,
  type LexicalEditor,
} from "lexical";

/** Opens the floating link editor on the selection (the toolbar's Link button, Ctrl/Cmd+K). */
export const OPEN_LINK_EDITOR_COMMAND = createCommand<void>("OPEN_LINK_EDITOR_COMMAND");

/** The link the selection's anchor is in, if any (read inside an editor read or update). */
export function $selectedLink(selection: BaseSelection | null = $getSelection()): LinkNode | null {
  if (!$isRangeSelection(selection)) return null;
  return $findMatchingParent(selection.anchor.getNode(), $isLinkNode);
}

/** Whether a link can be added or edited on `selection`: text is selected, or the caret is in a link. */
export function $canEditLink(selection: BaseSelection | null = $getSelection()): boolean {
  return $isRangeSelection(selection) && (!selection.isCollapsed() || $selectedLink(selection) !== null);
}

/**
 * The selection the writer sees: the browser's, when it lies in the editor, else the editor's.
 * The editor's own can trail the browser's by a keystroke: it follows `selectionchange`, which
 * the browser fires after the key, so a shortcut pressed right after Shift+Arrow would otherwise
 * link one character less than is highlighted.
 */
export function $visibleSelection(editor: LexicalEditor): BaseSelection | null {
  const dom = window.getSelection();
  const root = editor.getRootElement();
  if (dom?.anchorNode && dom.focusNode && root?.contains(dom.anchorNode) && root.contains(dom.focusNode))
    return $createRangeSelectionFromDom(dom, editor) ?? $getSelection();
  return $getSelection();
}

/**
 * Sets (a checked URL) or removes (null) the link on `selection`, the selection the editor was
 * opened on: focus moved to the link editor's input meanwhile, and a collaborator's edit may have
 * moved the current one. A caret inside a link edits or removes that whole link.
 */
export function applyLink(editor: LexicalEditor, selection: BaseSelection | null, url: string | null): void {
  editor.update(() => {
    // Only while its nodes still exist (a collaborator may have deleted them meanwhile).
    if (
      $isRangeSelection(selection) &&
      $getNodeByKey(selection.anchor.key) &&
      $getNodeByKey(selection.focus.key)
    )
      $setSelection(selection.clone());
    const current = $getSelection();
    const link = $selectedLink();
    if (url !== null && link && $isRangeSelection(current) && current.isCollapsed()) link.setURL(url);
    else $toggleLink(url);
  });
}
