"use client";

import { COMMENTS_ROOT_NAME, readThreads } from "@coauthor/tools";
import { countOpenThreads, type OpenThreadCounts } from "@coauthor/types";
import { useEffect, useState } from "react";
import { useAgentLive } from "@/components/editor/agent-live-context";

/**
 * The open threads of the open document and those mentioning the viewer (known by `mentionNames`),
 * live: read from the shared threads whenever they change, whether the Comments view is shown or not.
 */
export function useCommentBadge(mentionNames: readonly string[]): OpenThreadCounts {
  const { collab } = useAgentLive();
  const [counts, setCounts] = useState<OpenThreadCounts>({ open: 0, mentions: 0 });
  // The names as one value: a new array with the same names does not read the threads again.
  const namesKey = mentionNames.join("\n");

  useEffect(() => {
    const { doc } = collab();
    const threads = doc.getMap(COMMENTS_ROOT_NAME);
    const names = namesKey === "" ? [] : namesKey.split("\n");
    const count = () => setCounts(countOpenThreads(readThreads(doc), names));
    count();
    threads.observeDeep(count);
    return () => threads.unobserveDeep(count);
  }, [collab, namesKey]);

  return counts;
}
