"use client";

import { useRef } from "react";

// **Import Markdown…** on the home page: a Markdown file becomes a new document. A file written
// with CriticMarkup (`{++ ++}`, `{-- --}`, `{~~ ~> ~~}`, as Export Markdown writes suggestions)
// is imported with its changes as the importing writer's pending suggestions.

/** Largest file read in the browser (the server refuses more than 1,000,000 characters anyway). */
const MAX_FILE_BYTES = 4_000_000;

/** Any CriticMarkup change or comment opening (highlights are refused by the importer, and named there). */
const CRITICMARKUP = /\{(\+\+|--|~~|>>|==)/;

export interface MarkdownImport {
  title: string;
  markdown: string;
  format: "markdown" | "criticmarkup";
}

/** What `file` imports as: its name as the title, CriticMarkup when it holds any. */
export function importOf(fileName: string, text: string): MarkdownImport {
  const title =
    fileName
      .replace(/\.(md|markdown|txt)$/i, "")
      .trim()
      .slice(0, 200) || "Imported document";
  return { title, markdown: text, format: CRITICMARKUP.test(text) ? "criticmarkup" : "markdown" };
}

export function ImportMarkdown({
  disabled,
  onImport,
  onError,
}: {
  disabled: boolean;
  onImport: (file: MarkdownImport) => void;
  onError: (message: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="button"
        data-testid="import-markdown"
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        Import Markdown…
      </button>
      <input
        ref={input}
        type="file"
        accept=".md,.markdown,.txt,text/markdown,text/plain"
        hidden
        data-testid="import-markdown-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (!file) return;
          if (file.size > MAX_FILE_BYTES) {
            onError(`${file.name} is too large to import (at most ${MAX_FILE_BYTES / 1_000_000} MB).`);
            return;
          }
          file.text().then(
            (text) => onImport(importOf(file.name, text)),
            (error: unknown) =>
              onError(
                `Could not read ${file.name}: ${error instanceof Error ? error.message : String(error)}`,
              ),
          );
        }}
      />
    </>
  );
}
