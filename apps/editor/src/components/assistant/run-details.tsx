"use client";

import type { RunEdits } from "@coauthor/types";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { type BlockLookup, blockInfoFromJson, readBlockInfos } from "../editor/block-info";
import { RunDiffView } from "./run-diff-view";
import { fetchRunLog, type LogLine } from "./run-log";
import { ToolActivityLine } from "./tool-activity-line";

/** The raw event log, for operators: one line per event with its time since the run started. */
function EventLog({ lines }: { lines: LogLine[] }) {
  return (
    <details className="run-log-disclosure" data-testid="run-log-disclosure">
      <summary>Event log</summary>
      <ol className="run-log" data-testid="run-log" aria-label="Event log">
        {lines.map((line) => (
          <li key={line.id} className="run-log-line" data-testid="run-log-line" data-type={line.type}>
            <span className="run-log-id">#{line.id}</span>
            <span className="run-log-time">
              {line.elapsedMs === undefined ? "" : `+${(line.elapsedMs / 1_000).toFixed(2)} s`}
            </span>
            <span className="run-log-type">{line.type}</span>
            <span className="run-log-text">{line.text}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}

/**
 * The blocks a History line's sentences quote: as the run left or found them (its stored edits),
 * else as they are now in the document.
 */
function historyLookup(
  edits: RunEdits | null | undefined,
  live: (id: string) => ReturnType<BlockLookup>,
): BlockLookup {
  return (id) => {
    const stored = edits?.before[id] ?? edits?.after[id];
    return stored ? blockInfoFromJson(stored) : live(id);
  };
}

/** One run opened in History: what it changed (a rendered diff), what it did (sentences), and its raw log. */
export function RunDetails({ runId, onReveal }: { runId: string; onReveal: (blockId: string) => boolean }) {
  const trpc = useTRPC();
  const [editor] = useLexicalComposerContext();
  const edits = useQuery({ ...trpc.assistant.runEdits.queryOptions({ runId }), staleTime: 5_000 });
  const log = useQuery({
    queryKey: ["run-log", runId],
    queryFn: ({ signal }) => fetchRunLog(runId, signal),
    staleTime: 5_000,
  });
  const lookup = historyLookup(edits.data, (id) => readBlockInfos(editor, [id])[id]);
  return (
    <div className="run-details" data-testid="run-details">
      <h3 className="run-details-heading">Changes</h3>
      {edits.isPending ? <p className="muted">Loading the changes…</p> : null}
      {edits.isError ? <p className="message-notice">{edits.error.message}</p> : null}
      {edits.isSuccess ? <RunDiffView edits={edits.data} /> : null}
      <h3 className="run-details-heading">Steps</h3>
      {log.isPending ? <p className="muted">Loading the steps…</p> : null}
      {log.isError ? <p className="message-notice">{log.error.message}</p> : null}
      {log.isSuccess ? (
        <>
          {log.data.calls.length === 0 ? <p className="muted">No tool calls.</p> : null}
          <div className="run-activity" data-testid="run-activity">
            {log.data.calls.map((call) => (
              <ToolActivityLine key={call.toolCallId} call={call} lookup={lookup} onReveal={onReveal} />
            ))}
          </div>
          <EventLog lines={log.data.lines} />
        </>
      ) : null}
    </div>
  );
}
