"use client";

import type { RunChanges } from "@coauthor/tools";
import type { RevertReport } from "../editor/revert-run";

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** "3 blocks added, 1 changed": what the run did, in a few words. */
export function describeChanges(changes: RunChanges): string {
  const parts = [
    changes.inserted.length > 0 ? `${plural(changes.inserted.length, "block")} added` : "",
    changes.changed.length > 0 ? `${changes.changed.length} changed` : "",
    changes.deleted.length > 0 ? `${changes.deleted.length} deleted` : "",
    changes.moved.length > 0 ? `${changes.moved.length} moved` : "",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "no changes";
}

/** What an Undo run did: everything back, or which edits stayed because someone changed them since. */
export function UndoReport({ report, onDismiss }: { report: RevertReport; onDismiss: () => void }) {
  const text =
    report.keptByWriter === 0
      ? `Undone: ${plural(report.reverted, "edit")} taken back.`
      : `Undone: ${plural(report.reverted, "edit")} taken back; ${plural(report.keptByWriter, "block")} kept because someone changed ${report.keptByWriter === 1 ? "it" : "them"} since.`;
  return (
    <section className="run-review" data-testid="assistant-undo-report" aria-label="Undo run">
      <span className="run-review-text" role="status">
        {text}
      </span>
      <button type="button" className="button" onClick={onDismiss}>
        OK
      </button>
    </section>
  );
}

/** Keep or undo the edits of the run that just ended. */
export function RunReviewBar({
  changes,
  onKeep,
  onUndo,
}: {
  changes: RunChanges;
  onKeep: () => void;
  onUndo: () => void;
}) {
  return (
    <section className="run-review" data-testid="assistant-run-review" aria-label="The run's edits">
      <span className="run-review-text">Edits: {describeChanges(changes)}</span>
      <button
        type="button"
        className="button"
        data-testid="assistant-keep"
        aria-keyshortcuts="Alt+Shift+K"
        onClick={onKeep}
      >
        Keep
      </button>
      <button
        type="button"
        className="button danger"
        data-testid="assistant-undo-run"
        aria-keyshortcuts="Alt+Shift+U"
        title="Take back this run's edits; your own edits since stay"
        onClick={onUndo}
      >
        Undo run
      </button>
    </section>
  );
}
