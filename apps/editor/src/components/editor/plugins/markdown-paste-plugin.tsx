"use client";

import { $parseMarkdownBlocks, looksLikeMarkdown } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { $getSelection, $isRangeSelection, COMMAND_PRIORITY_LOW, PASTE_COMMAND } from "lexical";
import { useEffect } from "react";

/**
 * Pasting Markdown source (from a README, a chat, a plain-text editor) inserts what it means:
 * headings, lists, code, tables, links. Only plain-text pastes are read this way, and only when
 * the text uses Markdown syntax; a paste that carries HTML keeps Lexical's own handling, and prose
 * is pasted as it is. The Markdown is read by the same module as the agent's and the server's.
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
          const blocks = $parseMarkdownBlocks(text);
          if (blocks.length === 0) return false;
          event.preventDefault();
          selection.insertNodes(blocks);
          return true;
        },
        COMMAND_PRIORITY_LOW,
      ),
    [editor],
  );
  return null;
}
