"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/trpc/react";
import { pageTitle } from "../page-title";

/**
 * The document title as an input that renames the document on blur or Enter; the page's heading
 * and the tab's title follow the saved title.
 */
export function DocumentTitle({
  documentId,
  initialTitle,
  readOnly = false,
  onEnter,
}: {
  documentId: string;
  initialTitle: string;
  /** A viewer sees the title but cannot rename. */
  readOnly?: boolean;
  /** After Enter: where the writer goes next (the document). */
  onEnter?: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(initialTitle);
  const [draft, setDraft] = useState(initialTitle);
  const rename = useMutation(
    trpc.documents.rename.mutationOptions({
      onSuccess: ({ title }) => {
        setSaved(title);
        setDraft(title);
        return queryClient.invalidateQueries({ queryKey: trpc.documents.list.pathKey() });
      },
    }),
  );

  useEffect(() => {
    document.title = pageTitle(saved);
  }, [saved]);

  const commit = () => {
    const title = draft.trim();
    if (!title) {
      setDraft(saved);
      return;
    }
    if (title !== saved) rename.mutate({ id: documentId, title });
  };

  return (
    <div className="document-title-wrap">
      {/* The visible title is an input; screen readers get the page's heading from here. */}
      <h1 className="visually-hidden">{saved}</h1>
      <input
        className="document-title"
        data-testid="document-title"
        aria-label="Document title"
        value={draft}
        maxLength={200}
        readOnly={readOnly}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            event.currentTarget.blur();
            onEnter?.();
          } else if (event.key === "Escape") {
            setDraft(saved);
          }
        }}
      />
      {rename.isError ? (
        <span role="alert" className="error small">
          Rename failed: {rename.error.message}
        </span>
      ) : null}
    </div>
  );
}
