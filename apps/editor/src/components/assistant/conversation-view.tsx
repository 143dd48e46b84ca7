"use client";

import { ClearConversation } from "./clear-conversation";
import type { ConversationItem } from "./conversation";
import { MessageList } from "./message-list";
import type { PipelineView } from "./pipeline-state";
import { PipelineTree } from "./pipeline-tree";
import { PlanChecklist } from "./plan-checklist";
import type { PlanView } from "./plan-state";
import { SuggestionReview } from "./suggestion-review";

/** The panel's main view: pending suggestions, the run's plan or pipeline, and the conversation. */
export function ConversationView({
  documentId,
  canDecide,
  onReveal,
  plan,
  pipeline,
  run,
}: {
  documentId: string;
  /** Whether the writer may accept or reject suggestions (owners and editors). */
  canDecide: boolean;
  onReveal: (blockId: string) => boolean;
  plan: PlanView | null;
  pipeline: PipelineView | null;
  run: { items: ConversationItem[]; isRunning: boolean; clear: () => void };
}) {
  return (
    <>
      <SuggestionReview documentId={documentId} canDecide={canDecide} onReveal={onReveal} />
      <PlanChecklist plan={plan} />
      <PipelineTree pipeline={pipeline} />
      <MessageList items={run.items} onReveal={onReveal} />
      {run.items.length > 0 ? (
        <ClearConversation documentId={documentId} disabled={run.isRunning} onCleared={run.clear} />
      ) : null}
    </>
  );
}
