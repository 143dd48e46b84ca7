"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { DeleteRunLog } from "./delete-run-log";
import { fetchRunLog } from "./run-log";

function formatDuration(ms: number | null): string {
  if (ms === null) return "running";
  return ms < 1_000 ? `${ms} ms` : `${(ms / 1_000).toFixed(1)} s`;
}

function RunLog({ runId }: { runId: string }) {
  const log = useQuery({
    queryKey: ["run-log", runId],
    queryFn: ({ signal }) => fetchRunLog(runId, signal),
    staleTime: 5_000,
  });
  if (log.isPending) return <p className="muted">Loading the event log…</p>;
  if (log.isError) return <p className="message-notice">{log.error.message}</p>;
  return (
    <ol className="run-log" data-testid="run-log" aria-label="Event log">
      {log.data.lines.map((line) => (
        <li key={line.id} className="run-log-line" data-testid="run-log-line" data-type={line.type}>
          <span className="run-log-id">#{line.id}</span>
          <span className="run-log-time">{line.elapsedMs === undefined ? "" : `+${line.elapsedMs} ms`}</span>
          <span className="run-log-type">{line.type}</span>
          <span className="run-log-text">{line.text}</span>
        </li>
      ))}
    </ol>
  );
}

/** A run's cost for people: dollars to the cent, or to four places under a cent; nothing when unknown. */
export function formatCost(microUsd: number | null): string {
  if (microUsd === null) return "";
  const dollars = microUsd / 1_000_000;
  if (dollars === 0) return " · free";
  return ` · $${dollars >= 0.01 ? dollars.toFixed(2) : dollars.toFixed(4)}`;
}

/** The writer's runs on this document: prompt, model, status, timing, tool calls, tokens; each opens its event log. */
export function RunHistory({
  documentId,
  openRunId,
  onOpen,
  onUndo,
  canDeleteLogs,
  userId,
}: {
  documentId: string;
  openRunId: string | null;
  onOpen: (runId: string | null) => void;
  /** Undoes one of `userId`'s finished runs from its stored edits (absent for viewers). */
  onUndo?: (runId: string) => Promise<void>;
  /** Writers may delete the logs of the runs History shows them (the owner: all; an editor: their own). */
  canDeleteLogs: boolean;
  userId: string;
}) {
  const trpc = useTRPC();
  const runs = useQuery({ ...trpc.assistant.runs.queryOptions({ documentId }), staleTime: 0 });
  if (runs.isPending) return <p className="muted run-history">Loading runs…</p>;
  if (runs.isError) return <p className="message-notice run-history">{runs.error.message}</p>;
  if (runs.data.length === 0) return <p className="muted run-history">No agent runs on this document yet.</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container must be reachable by keyboard (WCAG 2.1.1).
    <ul className="run-history" data-testid="run-history" aria-label="Agent runs" tabIndex={0}>
      {runs.data.map((run) => (
        <li key={run.id} className="run-history-item" data-testid="run-history-item" data-status={run.status}>
          <button
            type="button"
            className="run-history-open"
            aria-expanded={openRunId === run.id}
            onClick={() => onOpen(openRunId === run.id ? null : run.id)}
          >
            <span className="run-history-prompt">{run.prompt}</span>
            <span className="run-history-meta">
              {run.status} · {run.model} · {new Date(run.startedAt).toLocaleString()} ·{" "}
              {formatDuration(run.durationMs)} · {run.toolCalls} tool calls ·{" "}
              {run.inputTokens + run.outputTokens} tokens
              {run.cachedInputTokens > 0 ? ` (${run.cachedInputTokens} cached)` : ""}
              <span data-testid="run-history-cost">{formatCost(run.costMicroUsd)}</span>
            </span>
          </button>
          {onUndo && run.hasEdits && run.userId === userId && run.status !== "running" ? (
            <button
              type="button"
              className="button danger run-history-undo"
              data-testid="history-undo-run"
              title="Take back this run's edits; edits made since by anyone stay"
              onClick={() => {
                onUndo(run.id).catch((error: unknown) => console.warn("[assistant] undo failed:", error));
              }}
            >
              Undo run
            </button>
          ) : null}
          {canDeleteLogs && run.status !== "running" && !run.logDeleted ? (
            <DeleteRunLog documentId={documentId} runId={run.id} />
          ) : null}
          {run.logDeleted ? (
            <p className="muted run-history-log-deleted" data-testid="run-log-deleted">
              Its event log was deleted.
            </p>
          ) : openRunId === run.id ? (
            <RunLog runId={run.id} />
          ) : null}
        </li>
      ))}
    </ul>
  );
}
