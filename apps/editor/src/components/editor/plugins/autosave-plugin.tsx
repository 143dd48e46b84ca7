"use client";

import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useEffect, useRef } from "react";
import { useTRPCClient } from "@/trpc/react";
import { registerAutosave, type SaveState } from "../autosave";

/** Autosaves the document to the server through `documents.save`. */
export function AutosavePlugin({
  documentId,
  onStateChange,
}: {
  documentId: string;
  onStateChange: (state: SaveState) => void;
}) {
  const [editor] = useLexicalComposerContext();
  const client = useTRPCClient();
  // The callback may change identity on every render; the registration should not.
  const onStateChangeRef = useRef(onStateChange);
  useEffect(() => {
    onStateChangeRef.current = onStateChange;
  }, [onStateChange]);

  useEffect(
    () =>
      registerAutosave(editor, {
        save: async (content, { keepalive }) => {
          await client.documents.save.mutate({ id: documentId, content }, { context: { keepalive } });
        },
        onStateChange: (state) => onStateChangeRef.current(state),
      }),
    [editor, client, documentId],
  );
  return null;
}
