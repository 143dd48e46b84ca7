"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { describeOutcome } from "./conversation";
import { DeleteRunLog } from "./delete-run-log";
import { RunDetails } from "./run-details";
import { counted } from "./tool-activity";

// How often History asks again while it lists a run still going.
const RUNNING_REFRESH_MS = 2_000;

/** A run's duration for people: "850 ms", "4.2 s", "3 min 5 s". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "still running";
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1_000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** A run's cost for people: dollars to the cent, or to four places under a cent; nothing when unknown. */
export function formatCost(microUsd: number | null): string {
  if (microUsd === null) return "";
  const dollars = microUsd / 1_000_000;
  if (dollars === 0) return " · free";
  return ` · $${dollars >= 0.01 ? dollars.toFixed(2) : dollars.toFixed(4)}`;
}

/**
 * The runs on this document as a timeline (who, prompt, outcome in the panel's words, when, how
 * long, tool calls, tokens and cost); each opens as a diff of what it changed, its steps and its
 * raw event log.
 */
export function RunHistory({
  documentId,
  openRunId,
  onOpen,
  onUndo,
  canDeleteLogs,
  onReveal,
  userId,
}: {
  documentId: string;
  openRunId: string | null;
  onOpen: (runId: string | null) => void;
  /** Undoes one of `userId`'s finished runs from its stored edits (absent for viewers). */
  onUndo?: (runId: string) => Promise<void>;
  /** Writers may delete the logs of the runs History shows them (the owner: all; an editor: their own). */
  canDeleteLogs: boolean;
  /** Takes the writer to a block a step links to. */
  onReveal: (blockId: string) => boolean;
  userId: string;
}) {
  const trpc = useTRPC();
  const runs = useQuery({
    ...trpc.assistant.runs.queryOptions({ documentId }),
    staleTime: 0,
    // A run still going (a collaborator's, or this writer's while its end is being recorded) is
    // asked about again until it shows how it ended.
    refetchInterval: (query) =>
      query.state.data?.some((run) => run.status === "running") ? RUNNING_REFRESH_MS : false,
  });
  if (runs.isPending) return <p className="muted run-history">Loading runs…</p>;
  if (runs.isError) return <p className="message-notice run-history">{runs.error.message}</p>;
  if (runs.data.length === 0) return <p className="muted run-history">No agent runs on this document yet.</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container must be reachable by keyboard (WCAG 2.1.1).
    <ol className="run-history" data-testid="run-history" aria-label="Agent runs" tabIndex={0}>
      {runs.data.map((run) => (
        <li key={run.id} className="run-history-item" data-testid="run-history-item" data-status={run.status}>
          <button
            type="button"
            className="run-history-open"
            aria-expanded={openRunId === run.id}
            onClick={() => onOpen(openRunId === run.id ? null : run.id)}
          >
            <span className="run-history-prompt">{run.prompt}</span>
            <span className="run-history-outcome" data-testid="run-history-outcome">
              {describeOutcome(run.status, run.summary)}
            </span>
            <span className="run-history-meta">
              {run.userId === userId ? "You" : run.userName || "Someone"} ·{" "}
              <time dateTime={run.startedAt}>{new Date(run.startedAt).toLocaleString()}</time> ·{" "}
              {formatDuration(run.durationMs)} · {counted(run.toolCalls, "tool call")} ·{" "}
              {counted(run.inputTokens + run.outputTokens, "token")}
              {run.cachedInputTokens > 0 ? ` (${run.cachedInputTokens.toLocaleString("en-US")} cached)` : ""}
              <span data-testid="run-history-cost">{formatCost(run.costMicroUsd)}</span> · {run.model}
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
            <RunDetails runId={run.id} onReveal={onReveal} />
          ) : null}
        </li>
      ))}
    </ol>
  );
}
