import {
  MAX_OUTCOMES_PER_RESULT,
  type SuggestionDecision,
  type SuggestionOutcome,
  suggestionOutcomeSchema,
} from "@coauthor/types";
import type * as Y from "yjs";
import type { PendingSuggestion } from "./suggestions.ts";
import { SUGGESTION_OUTCOMES_ROOT_NAME } from "./yjs-document.ts";

// What people decided about a run's suggestions, kept in the shared document (map
// "suggestionOutcomes", key: the suggestion's id) until the run's model is told: whoever executes
// the run's next tool call — the writer's tab, another tab, the server — takes the run's entries
// and hands them to the model with that call's result (`decidedByPeople`). In the document rather
// than in the deciding tab, because the person deciding is often not the one whose tab runs the run.

const MAX_TEXT = 200;

/**
 * How long an outcome waits to be told. Its run may have ended (a suggestion decided the next
 * day): no call will take it, so the next decision drops it — far longer than any run lasts.
 */
const KEEP_UNTOLD_MS = 24 * 60 * 60_000;

interface StoredOutcome extends SuggestionOutcome {
  runId: string;
  /** When it was decided (ms since the epoch). */
  at: number;
}

const outcomesOf = (doc: Y.Doc) => doc.getMap<unknown>(SUGGESTION_OUTCOMES_ROOT_NAME);

const excerpt = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

/**
 * Notes, for the runs that made them, a person's `decision` on `suggestions` (those of no run —
 * people's own — are nobody's to tell), and drops outcomes left untold for KEEP_UNTOLD_MS. One
 * transaction of `origin`, beside the decision's edit.
 */
export function recordSuggestionOutcomes(
  doc: Y.Doc,
  suggestions: readonly PendingSuggestion[],
  decision: SuggestionDecision,
  by: string,
  origin?: unknown,
): void {
  const ofRuns = suggestions.filter((suggestion) => suggestion.runId !== undefined);
  if (ofRuns.length === 0) return;
  const outcomes = outcomesOf(doc);
  const now = Date.now();
  doc.transact(() => {
    for (const [key, value] of outcomes.entries()) {
      const at = typeof value === "object" && value !== null && "at" in value ? value.at : null;
      if (typeof at !== "number" || now - at > KEEP_UNTOLD_MS) outcomes.delete(key);
    }
    for (const suggestion of ofRuns) {
      const stored: StoredOutcome = {
        at: now,
        runId: suggestion.runId as string,
        decision,
        by: excerpt(by),
        blockId: suggestion.namedAs,
        text: excerpt(suggestion.inserted || suggestion.deleted),
      };
      outcomes.set(suggestion.id, stored);
    }
  }, origin);
}

/**
 * Run `runId`'s call `output` with the outcomes waiting for the run (`decidedByPeople`), which it
 * takes out of the document in one transaction of `origin` — at most MAX_OUTCOMES_PER_RESULT, the
 * rest wait for the next call. A failure carries none: they wait for a success.
 */
export function tellSuggestionOutcomes(
  doc: Y.Doc,
  runId: string,
  output: unknown,
  origin?: unknown,
): unknown {
  if (typeof output !== "object" || output === null || !("ok" in output) || output.ok !== true) return output;
  const outcomes = outcomesOf(doc);
  const taken: Array<{ key: string; outcome: SuggestionOutcome }> = [];
  for (const [key, value] of outcomes.entries()) {
    if (taken.length === MAX_OUTCOMES_PER_RESULT) break;
    if (typeof value !== "object" || value === null || !("runId" in value) || value.runId !== runId) continue;
    const parsed = suggestionOutcomeSchema.safeParse(value);
    if (parsed.success) taken.push({ key, outcome: parsed.data });
  }
  if (taken.length === 0) return output;
  doc.transact(() => {
    for (const { key } of taken) outcomes.delete(key);
  }, origin);
  return { ...output, decidedByPeople: taken.map(({ outcome }) => outcome) };
}
