"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";

/** The document title as an input that renames the document on blur or Enter. */
export function DocumentTitle({
  documentId,
  initialTitle,
  readOnly = false,
}: {
  documentId: string;
  initialTitle: string;
  /** A viewer sees the title but cannot rename. */
  readOnly?: boolean;
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
        return queryClient.invalidateQueries({ queryKey: trpc.documents.list.queryKey() });
      },
    }),
  );

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
