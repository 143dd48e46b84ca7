"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/trpc/react";

/**
 * "Clear conversation", with a confirmation step: deletes the writer's own stored conversation with
 * the assistant on this document (on every device), then empties the panel. Not while a run goes.
 */
export function ClearConversation({
  documentId,
  disabled,
  onCleared,
}: {
  documentId: string;
  disabled: boolean;
  onCleared: () => void;
}) {
  const trpc = useTRPC();
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  // The question replaces the button that asked it: focus goes to its answer, not to the page.
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);
  const clear = useMutation(
    trpc.assistant.clearConversation.mutationOptions({
      onSuccess: () => {
        setConfirming(false);
        onCleared();
      },
    }),
  );
  if (!confirming)
    return (
      <button
        type="button"
        className="button ghost clear-conversation"
        data-testid="clear-conversation"
        disabled={disabled}
        onClick={() => setConfirming(true)}
      >
        Clear conversation
      </button>
    );
  return (
    <div className="clear-conversation-confirm">
      <p>Delete this conversation for good, on every device? The document does not change.</p>
      <button
        ref={confirmButton}
        type="button"
        className="button danger"
        data-testid="confirm-clear-conversation"
        disabled={clear.isPending}
        onClick={() => clear.mutate({ documentId })}
      >
        Clear
      </button>
      <button type="button" className="button" onClick={() => setConfirming(false)}>
        Cancel
      </button>
      {clear.isError ? (
        <p role="alert" className="message-notice">
          {clear.error.message}
        </p>
      ) : null}
    </div>
  );
}
