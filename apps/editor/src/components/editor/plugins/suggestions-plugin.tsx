"use client";

import { $getBlockSuggestion } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { $getRoot } from "lexical";
import { useEffect } from "react";

/**
 * Shows each top-level block's pending suggestion on its element (`data-suggestion` "inserted" or
 * "deleted", styled in globals.css), after every update: the state lives in the shared document,
 * so a co-editor's copy shows the same marks as they arrive.
 */
export function SuggestionsPlugin() {
  const [editor] = useLexicalComposerContext();
  useEffect(
    () =>
      editor.registerUpdateListener(({ editorState }) => {
        editorState.read(() => {
          for (const node of $getRoot().getChildren()) {
            const element = editor.getElementByKey(node.getKey());
            if (element === null) continue;
            const suggestion = $getBlockSuggestion(node);
            if (suggestion === null) delete element.dataset.suggestion;
            else element.dataset.suggestion = suggestion.change;
          }
        });
      }),
    [editor],
  );
  return null;
}
