"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/trpc/react";

/**
 * "Delete log" on a run in History, with a confirmation step: the run's event log, streams and tool
 * results go for good; its line in History and its edits (Undo run) stay.
 */
export function DeleteRunLog({ documentId, runId }: { documentId: string; runId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  // The question replaces the button that asked it: focus goes to its answer, not to the page.
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);
  const remove = useMutation(
    trpc.assistant.deleteRunLog.mutationOptions({
      onSuccess: async () => {
        setConfirming(false);
        queryClient.removeQueries({ queryKey: ["run-log", runId] });
        await queryClient.invalidateQueries({ queryKey: trpc.assistant.runs.queryKey({ documentId }) });
      },
    }),
  );
  if (!confirming)
    return (
      <button
        type="button"
        className="button run-history-delete-log"
        data-testid="delete-run-log"
        onClick={() => setConfirming(true)}
      >
        Delete log
      </button>
    );
  return (
    <div className="run-history-confirm">
      <p>Delete this run's event log for good? Its line here and its edits stay.</p>
      <button
        ref={confirmButton}
        type="button"
        className="button danger"
        data-testid="confirm-delete-run-log"
        disabled={remove.isPending}
        onClick={() => remove.mutate({ runId })}
      >
        Delete log
      </button>
      <button type="button" className="button" onClick={() => setConfirming(false)}>
        Cancel
      </button>
      {remove.isError ? (
        <p role="alert" className="message-notice">
          {remove.error.message}
        </p>
      ) : null}
    </div>
  );
}
