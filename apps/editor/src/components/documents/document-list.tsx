"use client";

import type { DocumentSort } from "@coauthor/types";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { DocumentRow } from "./document-row";
import { DocumentSearch } from "./document-search";
import { ImportMarkdown } from "./import-markdown";
import "./document-list.css";

/**
 * The documents the user may open (owned and shared, with their role): search (titles and text,
 * on the server), sort, a page at a time; create (empty, or from a Markdown file), rename, delete, open.
 */
export function DocumentList() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [query, setQuery] = useState("");
  const [sort, setSort] = useState<DocumentSort>("edited");
  const [importError, setImportError] = useState<string | null>(null);
  const documents = useInfiniteQuery(
    trpc.documents.list.infiniteQueryOptions(
      { query: query || undefined, sort },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, placeholderData: (previous) => previous },
    ),
  );
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.documents.list.pathKey() });
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
  const failure = create.error?.message ?? rename.error?.message ?? remove.error?.message ?? importError;
  const items = documents.data?.pages.flatMap((page) => page.items) ?? [];

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
        <ImportMarkdown
          disabled={create.isPending}
          onError={setImportError}
          onImport={(file) => {
            setImportError(null);
            create.mutate(file);
          }}
        />
      </div>
      <DocumentSearch sort={sort} onSearch={setQuery} onSort={setSort} />
      {failure ? (
        <p role="alert" className="error">
          {failure}
        </p>
      ) : null}
      {documents.isError ? (
        <p role="alert" className="error">
          Could not load documents: {documents.error.message}
        </p>
      ) : null}
      {/* One polite summary per result, never the list itself. */}
      <p className="muted document-list-status" role="status" data-testid="document-list-status">
        {documents.isPending ? "Loading…" : resultSummary(items.length, documents.hasNextPage, query)}
      </p>
      <ul className="document-rows" aria-labelledby="documents-heading" aria-busy={documents.isFetching}>
        {items.map((document) => (
          <DocumentRow
            key={document.id}
            document={document}
            onRename={(title) => rename.mutate({ id: document.id, title })}
            onDelete={() => remove.mutate({ id: document.id })}
          />
        ))}
      </ul>
      {documents.hasNextPage ? (
        <button
          type="button"
          className="button document-list-more"
          data-testid="documents-more"
          disabled={documents.isFetchingNextPage}
          onClick={() => {
            void documents.fetchNextPage();
          }}
        >
          {documents.isFetchingNextPage ? "Loading…" : "Show more documents"}
        </button>
      ) : null}
    </section>
  );
}

function resultSummary(shown: number, more: boolean, query: string): string {
  if (shown === 0)
    return query ? `No document matches “${query}”.` : "No documents yet. Create one to start writing.";
  const count = `${shown}${more ? "+" : ""} document${shown === 1 && !more ? "" : "s"}`;
  return query ? `${count} matching “${query}”` : count;
}
