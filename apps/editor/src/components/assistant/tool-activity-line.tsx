"use client";

import type { BlockLookup } from "../editor/block-info";
import { describeToolCall, type RecordedToolCall } from "./tool-activity";

/** The raw call for operators: name, arguments, and what the result said. */
function RawCall({ call }: { call: RecordedToolCall }) {
  const result =
    call.status === "running"
      ? "(running)"
      : JSON.stringify({
          ok: call.status === "ok",
          ...(call.detail ? { message: call.detail } : {}),
          ...call.facts,
        });
  return (
    <details className="tool-activity-raw" data-testid="tool-activity-raw">
      <summary>Raw call</summary>
      <dl>
        <dt>Tool</dt>
        <dd>{call.toolName}</dd>
        <dt>Arguments</dt>
        <dd>
          <pre>{JSON.stringify(call.input, null, 2)}</pre>
        </dd>
        <dt>Result</dt>
        <dd>
          <pre>{result}</pre>
        </dd>
      </dl>
    </details>
  );
}

/**
 * One tool call as a sentence in the writer's words (the panel's conversation and History draw
 * the same line): a link to the block it touched, the failure's reason, the raw call behind a
 * disclosure. `onReveal` takes the writer to a block; false when it is no longer there.
 */
export function ToolActivityLine({
  call,
  lookup,
  onReveal,
}: {
  call: RecordedToolCall;
  lookup: BlockLookup;
  onReveal: (blockId: string) => boolean;
}) {
  const { text, blockId } = describeToolCall(call, lookup);
  return (
    <div
      className={`tool-activity tool-activity-${call.status}`}
      data-testid="assistant-tool-call"
      data-status={call.status}
      data-tool={call.toolName}
    >
      <p className="tool-activity-text">
        {blockId ? (
          <a
            href={`#block-${blockId}`}
            className="tool-activity-link"
            data-testid="tool-activity-link"
            data-block-id={blockId}
            onClick={(event) => {
              event.preventDefault();
              if (!onReveal(blockId)) event.currentTarget.title = "That part of the document is gone";
            }}
          >
            {text}
          </a>
        ) : (
          text
        )}
        {call.status === "running" ? "…" : null}
        {call.status === "failed" && call.detail ? (
          <span className="tool-activity-detail">: {call.detail}</span>
        ) : null}
      </p>
      <RawCall call={call} />
    </div>
  );
}
