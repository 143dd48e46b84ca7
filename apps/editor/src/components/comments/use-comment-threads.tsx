"use client";

import { $anchoredThreadIds, COMMENTS_ROOT_NAME, readThreads } from "@coauthor/tools";
import type { CommentThread } from "@coauthor/types";
import { $isMarkNode, MarkNode } from "@lexical/mark";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { $getNodeByKey } from "lexical";
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
import { useAgentLive } from "@/components/editor/agent-live-context";

/** A thread as the view lists it: with whether its text is still in the document. */
export type ListedThread = CommentThread & { anchored: boolean };

const CommentThreadsContext = createContext<ListedThread[] | null>(null);

/**
 * Reads the document's threads once for every view of them (the margin beside the text, the
 * panel's Comments view), which take them with `useCommentThreads`.
 */
export function CommentThreadsProvider({ children }: { children: ReactNode }) {
  return (
    <CommentThreadsContext.Provider value={useThreadsOfCopy()}>{children}</CommentThreadsContext.Provider>
  );
}

/** The document's threads, live (from `CommentThreadsProvider`). */
export function useCommentThreads(): ListedThread[] {
  const threads = useContext(CommentThreadsContext);
  if (threads === null) throw new Error("useCommentThreads must be used inside CommentThreadsProvider");
  return threads;
}

/**
 * The document's threads, live: those whose text is in the document in the order it comes, then
 * those on deleted text (newest first). Threads come from the shared map; where they are comes
 * from the marks in the text. Also dims the marks of resolved threads in the page.
 */
function useThreadsOfCopy(): ListedThread[] {
  const [editor] = useLexicalComposerContext();
  const { collab } = useAgentLive();
  const [threads, setThreads] = useState<CommentThread[]>([]);
  const [order, setOrder] = useState<string[]>([]);

  useEffect(() => {
    const { doc } = collab();
    const map = doc.getMap(COMMENTS_ROOT_NAME);
    const read = () => setThreads(readThreads(doc));
    read();
    map.observeDeep(read);
    return () => map.unobserveDeep(read);
  }, [collab]);

  useEffect(() => {
    // The order changes only when marks come, go or move: their mutations, not every keystroke.
    const readOrder = () => setOrder(editor.read(() => $anchoredThreadIds()));
    readOrder();
    return editor.registerMutationListener(MarkNode, readOrder, { skipInitialization: true });
  }, [editor]);

  useEffect(() => {
    const resolved = new Set(
      threads.filter((thread) => thread.status === "resolved").map((thread) => thread.id),
    );
    const known = new Set(threads.map((thread) => thread.id));
    const dim = () =>
      editor.read(() => {
        for (const [key] of editor.getEditorState()._nodeMap) {
          const node = $getNodeByKey(key);
          if (!$isMarkNode(node)) continue;
          const ids = node.getIDs().filter((id) => known.has(id));
          editor
            .getElementByKey(key)
            ?.classList.toggle("doc-comment-quiet", ids.length === 0 || ids.every((id) => resolved.has(id)));
        }
      });
    dim();
    return editor.registerMutationListener(MarkNode, dim, { skipInitialization: true });
  }, [editor, threads]);

  const position = new Map(order.map((id, index) => [id, index]));
  const anchored = threads
    .filter((thread) => position.has(thread.id))
    .sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
  const detached = threads.filter((thread) => !position.has(thread.id)).sort((a, b) => b.at - a.at);
  return [
    ...anchored.map((thread) => ({ ...thread, anchored: true })),
    ...detached.map((thread) => ({ ...thread, anchored: false })),
  ];
}
