"use client";

import { DOCUMENT_SORTS, type DocumentSort, MAX_DOCUMENT_SEARCH_CHARS } from "@coauthor/types";
import { useEffect, useState } from "react";

/** How long typing pauses before the search goes to the server (Enter searches at once). */
const SEARCH_PAUSE_MS = 250;

const SORT_LABELS: Record<DocumentSort, string> = {
  edited: "Last edited",
  title: "Title",
  created: "Created",
};

/** Control characters cannot be searched (the server refuses them): they are dropped as typed or pasted. */
function searchable(text: string): string {
  return text.replace(/\p{Cc}/gu, " ").slice(0, MAX_DOCUMENT_SEARCH_CHARS);
}

/** The home list's search box (titles and text) and sort order. */
export function DocumentSearch({
  sort,
  onSearch,
  onSort,
}: {
  sort: DocumentSort;
  onSearch: (query: string) => void;
  onSort: (sort: DocumentSort) => void;
}) {
  const [draft, setDraft] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => onSearch(draft.trim()), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [draft, onSearch]);

  return (
    <search aria-label="Documents">
      <form
        className="document-search"
        onSubmit={(event) => {
          event.preventDefault();
          onSearch(draft.trim());
        }}
      >
        <label className="document-search-field">
          <span>Search titles and text</span>
          <input
            className="input"
            type="search"
            data-testid="document-search"
            value={draft}
            maxLength={MAX_DOCUMENT_SEARCH_CHARS}
            onChange={(event) => setDraft(searchable(event.target.value))}
          />
        </label>
        <label className="document-sort-field">
          <span>Sort by</span>
          <select
            className="input"
            data-testid="document-sort"
            value={sort}
            onChange={(event) => {
              const next = DOCUMENT_SORTS.find((option) => option === event.target.value);
              if (next) onSort(next);
            }}
          >
            {DOCUMENT_SORTS.map((option) => (
              <option key={option} value={option}>
                {SORT_LABELS[option]}
              </option>
            ))}
          </select>
        </label>
      </form>
    </search>
  );
}
