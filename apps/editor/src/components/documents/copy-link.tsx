"use client";

import { useState } from "react";

/**
 * Copies the document's address. People with access open it directly; anyone else is asked to
 * sign in and then sees "not found", so the link gives nothing away by itself.
 */
export function CopyLink({ documentId }: { documentId: string }) {
  const [status, setStatus] = useState<string | null>(null);

  const copy = async () => {
    const link = `${window.location.origin}/documents/${encodeURIComponent(documentId)}`;
    try {
      await navigator.clipboard.writeText(link);
      setStatus("Link copied");
    } catch (error) {
      // No clipboard permission (an embedding frame, an old browser): show the link to copy by hand.
      setStatus(`Copy this link: ${link}`);
      console.warn("[share] clipboard refused:", error);
    }
  };

  return (
    <span className="share-copy">
      <button type="button" className="button" onClick={() => void copy()}>
        Copy link
      </button>
      <span role="status" className="muted small" data-testid="copy-link-status">
        {status}
      </span>
    </span>
  );
}
