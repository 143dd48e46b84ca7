"use client";

import { $getBlockSuggestion } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { $getNodeByKey, $isRootNode } from "lexical";
import { useEffect } from "react";

/**
 * Shows each top-level block's pending suggestion on its element (`data-suggestion` "inserted" or
 * "deleted", styled in globals.css), after every update that touches it: the state lives in the
 * shared document, so a co-editor's copy shows the same marks as they arrive.
 */
export function SuggestionsPlugin() {
  const [editor] = useLexicalComposerContext();
  useEffect(
    () =>
      // Only the elements an update touched: a block whose suggestion changes is dirty, and a
      // keystroke touches one block, not the document (this runs after every update).
      editor.registerUpdateListener(({ editorState, dirtyElements }) => {
        editorState.read(() => {
          for (const key of dirtyElements.keys()) {
            const node = $getNodeByKey(key);
            if (node === null || !$isRootNode(node.getParent())) continue;
            const element = editor.getElementByKey(key);
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
