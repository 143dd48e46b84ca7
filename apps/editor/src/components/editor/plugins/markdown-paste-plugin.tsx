"use client";

import { $contentRuleBreak, $elementDepth, $readMarkdownBlocks, looksLikeMarkdown } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { $findMatchingParent } from "@lexical/utils";
import {
  $getSelection,
  $isElementNode,
  $isRangeSelection,
  COMMAND_PRIORITY_LOW,
  PASTE_COMMAND,
  type RangeSelection,
} from "lexical";

/**
 * Inserts `text` read as Markdown at `selection`; false (and nothing inserted) when the content
 * rule refuses it there, so the paste goes on as plain text.
 */
export function $insertMarkdown(text: string, selection: RangeSelection): boolean {
  const read = $readMarkdownBlocks(text);
  if (!read.ok || read.blocks.length === 0) return false;
  // The blocks land in or beside the block holding the caret (a list item deep in a list, say):
  // measured as if inside it, which may count one level more than Lexical makes.
  const caretBlock = $findMatchingParent(
    selection.anchor.getNode(),
    (node) => $isElementNode(node) && !node.isInline(),
  );
  const depth = caretBlock === null ? 0 : $elementDepth(caretBlock);
  if ($contentRuleBreak(read.blocks, depth) !== null) return false;
  selection.insertNodes(read.blocks);
  return true;
}

import { useEffect } from "react";

/**
 * Pasting Markdown source (from a README, a chat, a plain-text editor) inserts what it means:
 * headings, lists, code, tables, links. Only plain-text pastes are read this way, and only when
 * the text uses Markdown syntax; a paste that carries HTML keeps Lexical's own handling, and prose
 * is pasted as it is. The Markdown is read by the same module as the agent's and the server's.
 * Markdown the content rule refuses (nested past its depth where it lands, a table too large) is
 * pasted as the plain text it is, so the writer sees every character of it and nothing is lost.
 */
export function MarkdownPastePlugin() {
  const [editor] = useLexicalComposerContext();
  useEffect(
    () =>
      editor.registerCommand(
        PASTE_COMMAND,
        (event) => {
          if (!(event instanceof ClipboardEvent) || event.clipboardData === null) return false;
          const data = event.clipboardData;
          if (data.types.includes("text/html") || data.types.includes("application/x-lexical-editor"))
            return false;
          const text = data.getData("text/plain");
          if (!looksLikeMarkdown(text)) return false;
          const selection = $getSelection();
          if (!$isRangeSelection(selection)) return false;
          if (!$insertMarkdown(text, selection)) return false;
          event.preventDefault();
          return true;
        },
        COMMAND_PRIORITY_LOW,
      ),
    [editor],
  );
  return null;
}
