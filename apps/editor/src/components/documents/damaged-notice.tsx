"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import "./damaged-notice.css";

/**
 * Shown instead of a live document whose stored state does not load: when its last good version
 * was kept, and for the owner the way out (restoring it); everyone else learns that the owner can.
 * After a restore the page reloads, so the editor starts again from the restored state.
 */
export function DamagedNotice({ documentId, isOwner }: { documentId: string; isOwner: boolean }) {
  const trpc = useTRPC();
  const damage = useQuery({ ...trpc.documents.damage.queryOptions({ id: documentId }), gcTime: 0 });
  const restore = useMutation(
    trpc.documents.restoreLastGood.mutationOptions({ onSuccess: () => window.location.reload() }),
  );
  const lastGoodAt = damage.data?.lastGoodAt ? new Date(damage.data.lastGoodAt) : null;
  const failure = restore.error ?? damage.error;

  return (
    <section className="damaged-notice" role="alert" data-testid="damaged-notice">
      <p>
        <strong>This document could not be loaded:</strong> its stored content is damaged. Nothing you see
        here can be edited or saved.
      </p>
      {damage.isPending ? null : lastGoodAt ? (
        <p data-testid="last-good-at" data-time={lastGoodAt.toISOString()}>
          The last good version is from {lastGoodAt.toLocaleString()}.
        </p>
      ) : (
        <p>No good version of it was kept, so there is nothing to restore.</p>
      )}
      {isOwner ? (
        lastGoodAt ? (
          <p>
            <button
              type="button"
              className="button primary"
              disabled={restore.isPending}
              onClick={() => restore.mutate({ id: documentId })}
            >
              {restore.isPending ? "Restoring…" : "Restore last good version"}
            </button>
          </p>
        ) : null
      ) : (
        <p>Only the owner of this document can restore its last good version.</p>
      )}
      {failure ? <p className="error">{failure.message}</p> : null}
    </section>
  );
}
