"use client";

import { useAgentLiveState } from "./agent-live-context";

/** Says why the document does not take typing while the assistant edits it (the run policy, README "Policies"). */
export function AgentLockHint() {
  const { active } = useAgentLiveState();
  if (!active) return null;
  return (
    <p className="agent-lock-hint" data-testid="agent-lock-hint" role="status">
      Assistant is editing — the document is read-only until it finishes or you press Stop.
    </p>
  );
}
