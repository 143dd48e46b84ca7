"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTRPC } from "@/trpc/react";
import { DocumentRow } from "./document-row";

/** The documents the user may open (owned and shared, with their role): create, rename, delete, open. */
export function DocumentList() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const documents = useQuery(trpc.documents.list.queryOptions());
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.documents.list.queryKey() });
  const create = useMutation(
    trpc.documents.create.mutationOptions({
      onSuccess: async ({ id }) => {
        await invalidate();
        router.push(`/documents/${id}`);
      },
    }),
  );
  const rename = useMutation(trpc.documents.rename.mutationOptions({ onSettled: invalidate }));
  const remove = useMutation(trpc.documents.delete.mutationOptions({ onSettled: invalidate }));
  const failure = create.error ?? rename.error ?? remove.error;

  return (
    <section className="document-list" aria-labelledby="documents-heading">
      <div className="document-list-header">
        <h2 id="documents-heading">Documents</h2>
        <button
          type="button"
          className="button primary"
          data-testid="new-document"
          disabled={create.isPending}
          onClick={() => create.mutate({})}
        >
          {create.isPending ? "Creating…" : "New document"}
        </button>
      </div>
      {failure ? (
        <p role="alert" className="error">
          {failure.message}
        </p>
      ) : null}
      {documents.isPending ? <p className="muted">Loading…</p> : null}
      {documents.isError ? (
        <p role="alert" className="error">
          Could not load documents: {documents.error.message}
        </p>
      ) : null}
      {documents.data?.length === 0 ? (
        <p className="muted">No documents yet. Create one to start writing.</p>
      ) : null}
      <ul className="document-rows">
        {documents.data?.map((document) => (
          <DocumentRow
            key={document.id}
            id={document.id}
            title={document.title}
            updatedAt={document.updatedAt}
            role={document.role}
            onRename={(title) => rename.mutate({ id: document.id, title })}
            onDelete={() => remove.mutate({ id: document.id })}
          />
        ))}
      </ul>
    </section>
  );
}
