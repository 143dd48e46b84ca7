"use client";

import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from "react";

type Announce = (text: string) => void;

const AnnounceContext = createContext<Announce | null>(null);

/** Lines kept in the region: screen readers read each line once, when it is added. */
const KEPT_LINES = 5;

/**
 * One visually hidden polite live region for a page, fed with short summaries (a finished
 * message, a tool step, a save failure) instead of letting streamed text announce itself.
 * Each announcement is a new line, so two in a row are both read.
 */
export function AnnouncerProvider({ children }: { children: ReactNode }) {
  const [lines, setLines] = useState<{ id: number; text: string }[]>([]);
  const sequence = useRef(0);
  const announce = useCallback((text: string) => {
    const id = sequence.current++;
    setLines((kept) => [...kept.slice(1 - KEPT_LINES), { id, text }]);
  }, []);
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <div className="visually-hidden" aria-live="polite" aria-relevant="additions" data-testid="announcer">
        {lines.map((line) => (
          <p key={line.id}>{line.text}</p>
        ))}
      </div>
    </AnnounceContext.Provider>
  );
}

/** Announces a summary to screen readers (must be used under `AnnouncerProvider`). */
export function useAnnounce(): Announce {
  const announce = useContext(AnnounceContext);
  if (announce === null) throw new Error("useAnnounce must be used inside AnnouncerProvider");
  return announce;
}
