"use client";

import { hasPendingSuggestions, namesAuthors } from "@coauthor/tools";
import { DEFAULT_MARKDOWN_VIEW, type MarkdownView } from "@coauthor/types";
import type { LexicalEditor } from "lexical";
import { type RefObject, useId, useState } from "react";
import { useTRPCClient } from "@/trpc/react";
import { downloadMarkdown, markdownFileName } from "./download-file";
import "./export-markdown.css";

const VIEWS: ReadonlyArray<[MarkdownView, string]> = [
  ["accepted", "As if every suggestion were accepted"],
  ["rejected", "As if every suggestion were rejected"],
  ["criticmarkup", "With the suggestions in CriticMarkup"],
  [
    "authorship",
    "As if accepted, with who wrote each passage the agent or a reviewed change wrote (HTML comments)",
  ],
];

/**
 * "Export Markdown": downloads the document as Markdown (documents.export). With pending
 * suggestions in the document, or blocks that name who wrote them, it asks first how to write
 * them: accepted (the default), rejected, in CriticMarkup, or with who wrote what.
 */
export function ExportMarkdown(props: {
  documentId: string;
  title: string;
  editorRef: RefObject<LexicalEditor | null>;
  /** Reads the open copy's Yjs state: the export waits on the server until it holds what was typed. */
  copyStateRef: RefObject<(() => string) | null>;
}) {
  const client = useTRPCClient();
  const name = useId();
  const [choosing, setChoosing] = useState(false);
  const [view, setView] = useState<MarkdownView>(DEFAULT_MARKDOWN_VIEW);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const download = async (chosen: MarkdownView) => {
    setBusy(true);
    setFailure(null);
    try {
      const stateVector = props.copyStateRef.current?.();
      const { markdown } = await client.documents.export.query({
        id: props.documentId,
        view: chosen,
        ...(stateVector === undefined ? {} : { stateVector }),
      });
      downloadMarkdown(markdownFileName(props.title), markdown);
      setChoosing(false);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : "the export failed");
    } finally {
      setBusy(false);
    }
  };
  const start = () => {
    const editor = props.editorRef.current;
    if (editor !== null && (hasPendingSuggestions(editor) || namesAuthors(editor))) setChoosing(true);
    else void download(DEFAULT_MARKDOWN_VIEW);
  };

  return (
    <div className="export-markdown">
      <button type="button" className="button" data-testid="export-markdown" disabled={busy} onClick={start}>
        Export Markdown
      </button>
      {choosing ? (
        <form
          className="export-markdown-options"
          data-testid="export-markdown-options"
          onSubmit={(event) => {
            event.preventDefault();
            void download(view);
          }}
        >
          <fieldset>
            <legend>Export the document:</legend>
            {VIEWS.map(([value, label]) => (
              <label key={value}>
                <input
                  type="radio"
                  name={name}
                  value={value}
                  data-testid={`export-view-${value}`}
                  checked={view === value}
                  onChange={() => setView(value)}
                />{" "}
                {label}
              </label>
            ))}
          </fieldset>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? "Exporting…" : "Download"}
          </button>{" "}
          <button type="button" className="button" onClick={() => setChoosing(false)}>
            Cancel
          </button>
        </form>
      ) : null}
      {failure ? (
        <p role="alert" className="error">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
