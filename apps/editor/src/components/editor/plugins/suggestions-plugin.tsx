"use client";

import { $getBlockSuggestion } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { mergeRegister } from "@lexical/utils";
import { useEffect } from "react";
import { registerSuggestionWordMarks } from "../suggestion-word-marks";
import { registerTouchedBlocks } from "../touched-blocks";

/**
 * Shows each top-level block's pending suggestion on its element (`data-suggestion` "inserted" or
 * "deleted", styled in globals.css), after every update that touches it: the state lives in the
 * shared document, so a co-editor's copy shows the same marks as they arrive. A replaced block's
 * two halves mark only the words that changed (suggestion-word-marks.ts).
 */
export function SuggestionsPlugin() {
  const [editor] = useLexicalComposerContext();
  useEffect(
    () =>
      mergeRegister(
        registerTouchedBlocks(editor, (node, element) => {
          const suggestion = $getBlockSuggestion(node);
          if (suggestion === null) delete element.dataset.suggestion;
          else element.dataset.suggestion = suggestion.change;
        }),
        registerSuggestionWordMarks(editor),
      ),
    [editor],
  );
  return null;
}
