"use client";

import { type DocumentBlock, documentBlocks } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type CSSProperties, type FormEvent, useId, useMemo, useState } from "react";
import { useTRPC } from "@/trpc/react";
import { authorColour } from "../editor/authorship";
import { useCopyState } from "../editor/copy-state";
import { ChangedBlock, RenderedMarkdown } from "./rendered-blocks";
import { type ComparedBlock, compareBlocks } from "./version-compare";

/**
 * The document's versions, newest first: those taken around agent runs and before restores, and
 * those writers saved by name. One opens as its Markdown; owners and editors save a version and
 * restore one (a forward change every open copy receives, after a "Before restoring" version).
 */
export function VersionHistory({ documentId, canEdit }: { documentId: string; canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const versions = useQuery({ ...trpc.versions.list.queryOptions({ documentId }), staleTime: 0 });
  const [openId, setOpenId] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.versions.list.queryFilter({ documentId }));
  return (
    <section className="version-history" data-testid="version-history" aria-label="Versions">
      {canEdit ? <SaveVersion documentId={documentId} onSaved={refresh} /> : null}
      {versions.isPending ? <p className="muted">Loading versions…</p> : null}
      {versions.isError ? <p className="message-notice">{versions.error.message}</p> : null}
      {versions.data?.length === 0 ? (
        <p className="muted">No versions yet: one is taken before and after every agent run.</p>
      ) : null}
      {versions.data && versions.data.length > 0 ? (
        <ol className="run-history" aria-label="Versions">
          {versions.data.map((version, index) => (
            <li key={version.id} className="run-history-item" data-testid="version-item">
              <button
                type="button"
                className="run-history-open"
                aria-expanded={openId === version.id}
                onClick={() => setOpenId(openId === version.id ? null : version.id)}
              >
                <span className="run-history-prompt">{version.label}</span>
                <span className="run-history-meta">
                  {version.createdBy ?? "Someone"} ·{" "}
                  <time dateTime={new Date(version.createdAt).toISOString()}>
                    {new Date(version.createdAt).toLocaleString()}
                  </time>
                </span>
                {version.kind !== "edits" && version.editedBy.length > 0 ? (
                  <span className="run-history-meta" data-testid="version-people">
                    Changed since the version before by {namesText(version.editedBy)}
                  </span>
                ) : null}
                {version.runs.length > 0 ? (
                  <span className="run-history-meta" data-testid="version-runs">
                    {runsSinceText(version.runs)}
                  </span>
                ) : null}
              </button>
              {openId === version.id ? (
                <VersionPreview
                  documentId={documentId}
                  versionId={version.id}
                  previousId={versions.data[index + 1]?.id ?? null}
                  canRestore={canEdit}
                  onRestored={refresh}
                />
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}

/** "a", "a and b", "a, b and c"; past `max` items, "a, b, c and 4 more". */
function listText(items: readonly string[], max: number): string {
  const named = items.slice(0, max);
  const more = items.length - named.length;
  const list = more > 0 ? [...named, `${more} more`] : named;
  return list.length <= 1 ? list.join("") : `${list.slice(0, -1).join(", ")} and ${list.at(-1)}`;
}

/** "Alice and Bob" (at most four by name). */
const namesText = (names: readonly string[]) => listText(names, 4);

/** "Since the version before: Coauthor's runs “Tighten” for Alice and “Translate” for Bob". */
function runsSinceText(runs: ReadonlyArray<{ prompt: string; writer: string | null }>): string {
  const described = runs.map(
    (run) =>
      `“${run.prompt.length > 40 ? `${run.prompt.slice(0, 39)}…` : run.prompt}” for ${run.writer ?? "a former member"}`,
  );
  return `Since the version before: Coauthor's ${runs.length === 1 ? "run" : "runs"} ${listText(described, 3)}`;
}

function SaveVersion({ documentId, onSaved }: { documentId: string; onSaved: () => Promise<void> }) {
  const trpc = useTRPC();
  const [name, setName] = useState("");
  const copyState = useCopyState();
  const save = useMutation(
    trpc.versions.save.mutationOptions({
      onSuccess: async () => {
        setName("");
        await onSaved();
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) save.mutate({ documentId, name, stateVector: copyState() });
  };
  return (
    <form className="version-save" onSubmit={submit}>
      <label htmlFor="version-name">Version name</label>
      <input
        id="version-name"
        data-testid="version-name"
        value={name}
        maxLength={120}
        onChange={(event) => setName(event.target.value)}
      />
      <button type="submit" className="button" data-testid="version-save" disabled={save.isPending}>
        Save version
      </button>
      {save.isError ? (
        <p role="alert" className="message-notice">
          {save.error.message}
        </p>
      ) : null}
    </form>
  );
}

/** What an open version shows: itself, what changed since the version before it, or what changed since it. */
type VersionShown = "version" | "since-previous" | "to-now";

const SHOWN_LABELS: ReadonlyArray<[VersionShown, string]> = [
  ["version", "This version"],
  ["since-previous", "Changes since the version before"],
  ["to-now", "Changes from it to now"],
];

const CHANGE_LABELS: Record<Exclude<ComparedBlock["change"], "same">, string> = {
  added: "Added",
  removed: "Removed",
  changed: "Changed",
  moved: "Moved",
};

/** A block as the document shows it: added underlined, removed struck through, changed compared word by word. */
function BlockText({ item }: { item: ComparedBlock }) {
  if (item.change === "added")
    return (
      <ins className="block-added">
        <RenderedMarkdown markdown={item.block.markdown} />
      </ins>
    );
  if (item.change === "removed")
    return (
      <del className="block-removed">
        <RenderedMarkdown markdown={item.block.markdown} />
      </del>
    );
  if ((item.change === "changed" || item.change === "moved") && item.parts !== null)
    return <ChangedBlock before={item.previous.markdown} after={item.block.markdown} />;
  return <RenderedMarkdown markdown={item.block.markdown} />;
}

/**
 * `before` → `after` block by block (version-compare.ts): what was added, removed, changed (word
 * by word) or moved, each changed block with who wrote it in their colour (as Show authorship
 * colours the document).
 */
function BlockChanges({ before, after }: { before: DocumentBlock[]; after: DocumentBlock[] }) {
  const compared = compareBlocks(before, after);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container must be reachable by keyboard (WCAG 2.1.1).
    <div className="version-changes" data-testid="version-changes" tabIndex={0}>
      {compared.every((item) => item.change === "same") ? <p>No changes.</p> : null}
      {compared.map((item, index) => {
        const author = item.change === "removed" ? undefined : item.block.authors.at(-1);
        return (
          <div
            key={`${index}:${item.block.id ?? ""}`}
            className="version-block"
            data-change={item.change}
            style={author ? ({ "--author-colour": authorColour(author) } as CSSProperties) : undefined}
          >
            {item.change === "same" ? null : (
              <span className="version-block-label">
                {CHANGE_LABELS[item.change]}
                {author ? ` · written by ${author.authorName}` : ""}
              </span>
            )}
            <div className="version-block-text">
              <BlockText item={item} />
            </div>
          </div>
        );
      })}
    </div>
  );
}

function VersionPreview({
  documentId,
  versionId,
  previousId,
  canRestore,
  onRestored,
}: {
  documentId: string;
  versionId: number;
  /** The version taken just before this one (null: this is the oldest). */
  previousId: number | null;
  canRestore: boolean;
  onRestored: () => Promise<void>;
}) {
  const trpc = useTRPC();
  const [shown, setShown] = useState<VersionShown>("version");
  const name = useId();
  const content = useQuery(trpc.versions.read.queryOptions({ documentId, versionId }));
  const previous = useQuery({
    ...trpc.versions.read.queryOptions({ documentId, versionId: previousId ?? 0 }),
    enabled: shown === "since-previous" && previousId !== null,
  });
  // Now is this copy of the document (what the writer sees), read when "to now" is chosen.
  const [editor] = useLexicalComposerContext();
  const now = useMemo(() => (shown === "to-now" ? documentBlocks(editor) : null), [editor, shown]);
  const restore = useMutation(trpc.versions.restore.mutationOptions({ onSuccess: () => onRestored() }));
  return (
    <div className="version-preview">
      <fieldset className="version-shown">
        <legend className="visually-hidden">Show</legend>
        {SHOWN_LABELS.map(([value, label]) => (
          <label key={value}>
            <input
              type="radio"
              name={name}
              value={value}
              data-testid={`version-show-${value}`}
              checked={shown === value}
              disabled={value === "since-previous" && previousId === null}
              onChange={() => setShown(value)}
            />{" "}
            {label}
          </label>
        ))}
      </fieldset>
      {content.isPending || (shown === "since-previous" && previous.isPending) ? (
        <p className="muted">Loading…</p>
      ) : null}
      {content.isError ? <p className="message-notice">{content.error.message}</p> : null}
      {shown === "since-previous" && previous.isError ? (
        <p className="message-notice">{previous.error.message}</p>
      ) : null}
      {content.data && shown === "version" ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container must be reachable by keyboard (WCAG 2.1.1).
        <div className="version-document" data-testid="version-document" tabIndex={0}>
          <RenderedMarkdown markdown={content.data.markdown} />
        </div>
      ) : null}
      {content.data && shown === "since-previous" && previous.data ? (
        <BlockChanges before={previous.data.blocks} after={content.data.blocks} />
      ) : null}
      {content.data && shown === "to-now" && now !== null ? (
        <BlockChanges before={content.data.blocks} after={now} />
      ) : null}
      {canRestore ? (
        <button
          type="button"
          className="button"
          data-testid="version-restore"
          disabled={restore.isPending}
          onClick={() => restore.mutate({ documentId, versionId })}
        >
          Restore this version
        </button>
      ) : null}
      {restore.isSuccess ? (
        <p role="status" data-testid="version-restored">
          Restored: the document is as it was in this version (a version of what it was before was saved).
        </p>
      ) : null}
      {restore.isError ? (
        <p role="alert" className="message-notice">
          {restore.error.message}
        </p>
      ) : null}
    </div>
  );
}
