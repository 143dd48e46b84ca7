import type { LexicalEditor } from "lexical";

/** What the save indicator shows. */
export type SaveState = { kind: "saved" } | { kind: "saving" } | { kind: "error"; message: string };

export interface AutosaveOptions {
  /** Stores the serialized editor state; `keepalive` is set when the page is going away. */
  save: (content: string, options: { keepalive: boolean }) => Promise<void>;
  onStateChange: (state: SaveState) => void;
  delayMs?: number;
}

/**
 * Saves the document a short while after each content change (selection-only updates do not count),
 * one save at a time, and flushes a pending save when the page is hidden, unloaded or the editor unmounts.
 */
export function registerAutosave(editor: LexicalEditor, options: AutosaveOptions): () => void {
  const delayMs = options.delayMs ?? 400;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let dirty = false;
  let inFlight = false;

  const clearTimer = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  const saveNow = (keepalive: boolean) => {
    clearTimer();
    // One save at a time keeps writes in order; the page-is-leaving save cannot wait, so it goes anyway.
    if (!dirty || (inFlight && !keepalive)) return;
    dirty = false;
    inFlight = true;
    options.onStateChange({ kind: "saving" });
    const content = JSON.stringify(editor.getEditorState().toJSON());
    options.save(content, { keepalive }).then(
      () => {
        inFlight = false;
        if (!dirty) options.onStateChange({ kind: "saved" });
        else if (timer === null) saveNow(false);
      },
      (error: unknown) => {
        inFlight = false;
        // Keep the change pending: the next edit (or leaving the page) tries again.
        dirty = true;
        const message = error instanceof Error ? error.message : String(error);
        options.onStateChange({ kind: "error", message });
      },
    );
  };

  const removeListener = editor.registerUpdateListener(({ dirtyElements, dirtyLeaves }) => {
    if (dirtyElements.size === 0 && dirtyLeaves.size === 0) return;
    dirty = true;
    options.onStateChange({ kind: "saving" });
    clearTimer();
    timer = setTimeout(() => saveNow(false), delayMs);
  });

  const onVisibility = () => {
    if (document.visibilityState === "hidden") saveNow(true);
  };
  const onUnload = () => saveNow(true);
  document.addEventListener("visibilitychange", onVisibility);
  window.addEventListener("pagehide", onUnload);
  window.addEventListener("beforeunload", onUnload);

  return () => {
    removeListener();
    document.removeEventListener("visibilitychange", onVisibility);
    window.removeEventListener("pagehide", onUnload);
    window.removeEventListener("beforeunload", onUnload);
    // Leaving the document inside the app (client navigation): do not lose the last edits.
    saveNow(false);
  };
}
