"use client";

import type { RunEvent, RunMode } from "@coauthor/types";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { conversationReducer, type RunStatus, toHistory } from "./conversation";
import {
  cancelRun,
  type RunOutcome,
  type RunRequest,
  streamAgentRun,
  streamChat,
  type ToolExecutor,
} from "./run-client";

interface ActiveRun {
  controller: AbortController;
  runId: string | null;
}

export interface UseAgentRunOptions {
  documentId: string;
  executeTool: ToolExecutor;
  /** Called with true when an agent run starts and false when it ends (however it ends). */
  onAgentActiveChange?: (active: boolean) => void;
  /** Every event of an agent run, as it arrives (e.g. tool input deltas for the insert preview). */
  onRunEvent?: (event: RunEvent) => void;
}

export interface SendOptions {
  prompt: string;
  mode: RunMode;
  model?: string;
  selection?: RunRequest["selection"];
}

let sequence = 0;
const nextId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence++).toString(36)}`;

// Tool call ids are only unique within a run.
const toolKey = (call: { runId: string; toolCallId: string }) => `${call.runId}:${call.toolCallId}`;

function abortRun(run: ActiveRun): void {
  run.controller.abort();
  if (run.runId) {
    cancelRun(run.runId).catch((error: unknown) => console.warn("[assistant] cancel failed:", error));
  }
}

/** Conversation state plus start/stop of agent and chat runs (one at a time; a new prompt cancels the previous run). */
export function useAgentRun({
  documentId,
  executeTool,
  onAgentActiveChange,
  onRunEvent,
}: UseAgentRunOptions) {
  const [items, dispatch] = useReducer(conversationReducer, []);
  const [status, setStatus] = useState<RunStatus>({ phase: "idle" });
  const active = useRef<ActiveRun | null>(null);
  const itemsRef = useRef(items);
  const callbacks = useRef({ executeTool, onAgentActiveChange, onRunEvent });
  useEffect(() => {
    itemsRef.current = items;
    callbacks.current = { executeTool, onAgentActiveChange, onRunEvent };
  });

  const setAgentActive = useCallback((mode: RunMode, value: boolean) => {
    if (mode === "agent") callbacks.current.onAgentActiveChange?.(value);
  }, []);

  const send = useCallback(
    async ({ prompt, mode, model, selection }: SendOptions) => {
      const previous = active.current;
      if (previous) abortRun(previous);
      const run: ActiveRun = { controller: new AbortController(), runId: null };
      active.current = run;
      const request: RunRequest = {
        documentId,
        prompt,
        messages: toHistory(itemsRef.current),
        model,
        selection,
      };
      dispatch({ type: "user", id: nextId("user"), text: prompt });
      setStatus({ phase: "running", mode });
      callbacks.current.onAgentActiveChange?.(mode === "agent");

      const { signal } = run.controller;
      let sawText = false;
      const chatMessageId = nextId("answer");
      const onEvent = (event: RunEvent) => {
        callbacks.current.onRunEvent?.(event);
        if (event.type === "text-delta") {
          sawText = true;
          dispatch({ type: "assistant-delta", id: `${event.runId}:${event.messageId}`, delta: event.delta });
        } else if (event.type === "tool-call") {
          dispatch({ type: "tool-start", id: toolKey(event), toolName: event.toolName });
        } else if (event.type === "tool-result") {
          // The server's word on the call (also reaches a tab that did not run the tool itself).
          const detail = event.ok ? undefined : event.summary;
          dispatch({ type: "tool-settled", id: toolKey(event), ok: event.ok, detail });
        } else if (event.type === "error" && event.recoverable) {
          dispatch({ type: "notice", id: nextId("notice"), text: event.message });
        }
      };

      let outcome: RunOutcome;
      try {
        outcome =
          mode === "agent"
            ? await streamAgentRun(request, {
                signal,
                executeTool: (call) => callbacks.current.executeTool(call),
                onRunId: (runId) => {
                  run.runId = runId;
                },
                onEvent,
                onToolSettled: (call, { ok, detail }) =>
                  dispatch({ type: "tool-settled", id: toolKey(call), ok, detail }),
              })
            : await streamChat(request, {
                signal,
                onDelta: (delta) => dispatch({ type: "assistant-delta", id: chatMessageId, delta }),
              });
      } catch (error) {
        outcome = signal.aborted
          ? { status: "cancelled" }
          : { status: "failed", reason: error instanceof Error ? error.message : String(error) };
      }
      // Stopped or superseded: whoever replaced this run already reported its status.
      if (active.current !== run) return;
      active.current = null;
      if (outcome.status !== "failed" && outcome.summary && !sawText) {
        dispatch({ type: "assistant-delta", id: nextId("summary"), delta: outcome.summary });
      }
      setStatus({ phase: "ended", outcome });
      setAgentActive(mode, false);
    },
    [documentId, setAgentActive],
  );

  const stop = useCallback(() => {
    const run = active.current;
    if (!run) return;
    active.current = null;
    abortRun(run);
    setStatus({ phase: "ended", outcome: { status: "cancelled" } });
    callbacks.current.onAgentActiveChange?.(false);
  }, []);

  // Leaving the page (or the document) cancels the run rather than leaving it to run unseen.
  useEffect(
    () => () => {
      const run = active.current;
      active.current = null;
      if (!run) return;
      abortRun(run);
      callbacks.current.onAgentActiveChange?.(false);
    },
    [],
  );

  return { items, status, isRunning: status.phase === "running", send, stop };
}
