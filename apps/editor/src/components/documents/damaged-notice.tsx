"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC, useTRPCClient } from "@/trpc/react";
import { downloadMarkdown } from "./download-file";
import "./damaged-notice.css";

/**
 * Shown instead of a live document whose stored state does not load: its last good state (the
 * newest version that reads, or the state kept as it last opened cleanly), which anyone may export
 * as Markdown and the owner may restore; everyone else learns that the owner can. After a restore
 * the page reloads, so the editor starts again from the restored state.
 */
export function DamagedNotice({ documentId, isOwner }: { documentId: string; isOwner: boolean }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const damage = useQuery({ ...trpc.documents.damage.queryOptions({ id: documentId }), gcTime: 0 });
  const restore = useMutation(
    trpc.documents.restoreLastGood.mutationOptions({ onSuccess: () => window.location.reload() }),
  );
  const [exportError, setExportError] = useState<string | null>(null);
  const lastGoodAt = damage.data?.lastGoodAt ? new Date(damage.data.lastGoodAt) : null;
  const version = damage.data?.lastGoodVersion ?? null;
  const chosen = { id: documentId, versionId: version?.id };
  const failure = restore.error?.message ?? damage.error?.message ?? exportError;

  const exportMarkdown = async () => {
    setExportError(null);
    try {
      const { markdown } = await client.documents.lastGoodMarkdown.query(chosen);
      downloadMarkdown("last-good-version.md", markdown);
    } catch (error) {
      setExportError(error instanceof Error ? error.message : "the export failed");
    }
  };

  return (
    <section className="damaged-notice" role="alert" data-testid="damaged-notice">
      <p>
        <strong>This document could not be loaded:</strong> its stored content is damaged. Nothing you see
        here can be edited or saved.
      </p>
      {damage.isPending ? null : lastGoodAt ? (
        <p data-testid="last-good-at" data-time={lastGoodAt.toISOString()}>
          The last good version is {version ? <>&ldquo;{version.label}&rdquo;, </> : null}from{" "}
          {lastGoodAt.toLocaleString()}.
        </p>
      ) : (
        <p>No good version of it was kept, so there is nothing to restore.</p>
      )}
      {lastGoodAt ? (
        <p className="damaged-notice-actions">
          {isOwner ? (
            <button
              type="button"
              className="button primary"
              disabled={restore.isPending}
              onClick={() => restore.mutate(chosen)}
            >
              {restore.isPending ? "Restoring…" : "Restore last good version"}
            </button>
          ) : null}
          <button type="button" className="button" onClick={() => void exportMarkdown()}>
            Export it as Markdown
          </button>
        </p>
      ) : null}
      {isOwner ? null : <p>Only the owner of this document can restore its last good version.</p>}
      {failure ? <p className="error">{failure}</p> : null}
    </section>
  );
}
