"use client";

import type { EditMode, RunEvent, RunMode } from "@coauthor/types";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { useTRPC, useTRPCClient } from "@/trpc/react";
import type { BlockInfo } from "../editor/block-info";
import {
  type ConversationItem,
  conversationReducer,
  type RunStatus,
  storedItemId,
  toHistory,
} from "./conversation";
import {
  type AgentRunHandlers,
  cancelRun,
  findActiveRun,
  type RunOutcome,
  type RunRequest,
  streamChat,
  type ToolExecutor,
} from "./run-client";
import { reattachAgentRun, streamAgentRun } from "./run-follow";
import { referencedBlockIds } from "./tool-activity";

interface ActiveRun {
  /** Aborting it stops reading and running tools here; the server run goes on unless cancelled. */
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
  /** The document's blocks named by `ids` as they are now (the text a tool call's sentence quotes). */
  lookupBlocks?: (ids: string[]) => Record<string, BlockInfo>;
}

export interface SendOptions {
  prompt: string;
  mode: RunMode;
  model?: string;
  selection?: RunRequest["selection"];
  continueRunId?: string;
  recipeId?: string;
  /** How the agent's writes land (agent mode). */
  editMode?: EditMode;
  /** Run in the background (agent mode): the server executes its tool calls, the tab may close. */
  background?: boolean;
}

let sequence = 0;
const nextId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence++).toString(36)}`;

// Tool call ids are only unique within a run.
const toolKey = (call: { runId: string; toolCallId: string }) => `${call.runId}:${call.toolCallId}`;

/** Stops reading `run` here and cancels it on the server; `onCancelled` once the server answered. */
function abortRun(run: ActiveRun, onCancelled: () => void): void {
  run.controller.abort();
  if (run.runId) {
    cancelRun(run.runId).then(onCancelled, (error: unknown) =>
      console.warn("[assistant] cancel failed:", error),
    );
  }
}

/** Conversation state plus start/stop of agent and chat runs (one at a time; a new prompt cancels the previous run). */
export function useAgentRun({
  documentId,
  executeTool,
  onAgentActiveChange,
  onRunEvent,
  lookupBlocks,
}: UseAgentRunOptions) {
  const [items, dispatch] = useReducer(conversationReducer, []);
  // History (open beside the prompt box) lists the document's runs: one started, stopped or ended
  // here changes that list.
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  const refreshHistory = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.assistant.runs.queryKey({ documentId }) });
  }, [queryClient, trpc, documentId]);
  const [status, setStatus] = useState<RunStatus>({ phase: "idle" });
  const active = useRef<ActiveRun | null>(null);
  const itemsRef = useRef(items);
  const callbacks = useRef({ executeTool, onAgentActiveChange, onRunEvent, lookupBlocks, refreshHistory });
  useEffect(() => {
    itemsRef.current = items;
    callbacks.current = { executeTool, onAgentActiveChange, onRunEvent, lookupBlocks, refreshHistory };
  });

  // The conversation stored on the server (earlier visits, other devices) goes before this visit's.
  const trpcClient = useTRPCClient();
  useEffect(() => {
    let current = true;
    trpcClient.assistant.conversation
      .query({ documentId })
      .then((stored) => {
        if (!current) return;
        const loaded = stored.map(
          (message): ConversationItem => ({
            kind: message.role,
            id: storedItemId(message.id),
            text: message.content,
          }),
        );
        dispatch({ type: "load", items: loaded });
      })
      .catch((error: unknown) => {
        if (current) console.warn("[assistant] could not load the conversation:", error);
      });
    return () => {
      current = false;
    };
  }, [documentId, trpcClient]);

  const setAgentActive = useCallback((mode: RunMode, value: boolean) => {
    if (mode === "agent") callbacks.current.onAgentActiveChange?.(value);
  }, []);

  /** The event and tool handlers of one agent run shown in this panel. */
  const agentHandlers = useCallback((run: ActiveRun) => {
    let sawText = false;
    const handlers: AgentRunHandlers = {
      signal: run.controller.signal,
      executeTool: (call) => callbacks.current.executeTool(call),
      onRunId: (runId) => {
        run.runId = runId;
        callbacks.current.refreshHistory();
      },
      onEvent: (event: RunEvent) => {
        callbacks.current.onRunEvent?.(event);
        if (event.type === "text-delta") {
          sawText = true;
          dispatch({ type: "assistant-delta", id: `${event.runId}:${event.messageId}`, delta: event.delta });
        } else if (event.type === "tool-call") {
          // Before the tool runs: the blocks it names are quoted as they were.
          const context = callbacks.current.lookupBlocks?.(referencedBlockIds(event.input)) ?? {};
          dispatch({
            type: "tool-start",
            id: toolKey(event),
            toolName: event.toolName,
            input: event.input,
            context,
          });
        } else if (event.type === "tool-result") {
          // The server's word on the call (also reaches a tab that did not run the tool itself).
          const detail = event.ok ? undefined : event.summary;
          dispatch({ type: "tool-settled", id: toolKey(event), ok: event.ok, detail, facts: event.facts });
        } else if (event.type === "error" && event.recoverable) {
          dispatch({ type: "notice", id: nextId("notice"), text: event.message });
        }
      },
      onToolSettled: (call, { ok, detail }) =>
        dispatch({ type: "tool-settled", id: toolKey(call), ok, detail }),
    };
    return { handlers, sawText: () => sawText };
  }, []);

  /** Reports how `run` ended, unless it was stopped or superseded (whoever did that reported it). */
  const settle = useCallback(
    (run: ActiveRun, mode: RunMode, outcome: RunOutcome, sawText: boolean) => {
      if (mode === "agent") callbacks.current.refreshHistory();
      if (active.current !== run) return;
      active.current = null;
      if (outcome.status !== "failed" && outcome.summary && !sawText) {
        dispatch({ type: "assistant-delta", id: nextId("summary"), delta: outcome.summary });
      }
      setStatus({ phase: "ended", outcome, runId: run.runId });
      setAgentActive(mode, false);
    },
    [setAgentActive],
  );

  const send = useCallback(
    async ({ prompt, mode, ...options }: SendOptions) => {
      const previous = active.current;
      if (previous) abortRun(previous, callbacks.current.refreshHistory);
      const run: ActiveRun = { controller: new AbortController(), runId: null };
      active.current = run;
      // The rest of the request as the panel chose it: model, selection, recipe, edit mode, background.
      const request: RunRequest = { documentId, prompt, messages: toHistory(itemsRef.current), ...options };
      dispatch({ type: "user", id: nextId("user"), text: prompt });
      setStatus({ phase: "running", mode });
      callbacks.current.onAgentActiveChange?.(mode === "agent");

      const { signal } = run.controller;
      const chatMessageId = nextId("answer");
      const agent = agentHandlers(run);
      let outcome: RunOutcome;
      try {
        outcome =
          mode === "agent"
            ? await streamAgentRun(request, agent.handlers)
            : await streamChat(request, {
                signal,
                onDelta: (delta) => dispatch({ type: "assistant-delta", id: chatMessageId, delta }),
              });
      } catch (error) {
        outcome = signal.aborted
          ? { status: "cancelled" }
          : { status: "failed", reason: error instanceof Error ? error.message : String(error) };
      }
      settle(run, mode, outcome, agent.sawText());
    },
    [documentId, agentHandlers, settle],
  );

  // A run of this user still going on this document (the page was reloaded, or the tab closed and
  // reopened) is reattached: its events so far are shown once each, and it carries on here.
  useEffect(() => {
    const controller = new AbortController();
    findActiveRun(documentId, controller.signal)
      .then(async (found) => {
        if (!found || controller.signal.aborted || active.current) return;
        const run: ActiveRun = { controller, runId: found.runId };
        active.current = run;
        dispatch({ type: "user", id: `user-${found.runId}`, text: found.prompt });
        setStatus({ phase: "running", mode: "agent" });
        callbacks.current.onAgentActiveChange?.(true);
        const agent = agentHandlers(run);
        let outcome: RunOutcome;
        try {
          outcome = await reattachAgentRun(found, agent.handlers);
        } catch (error) {
          outcome = controller.signal.aborted
            ? { status: "cancelled" }
            : { status: "failed", reason: error instanceof Error ? error.message : String(error) };
        }
        settle(run, "agent", outcome, agent.sawText());
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          console.warn("[assistant] could not look for a run to reattach:", error);
      });
    return () => controller.abort();
  }, [documentId, agentHandlers, settle]);

  const stop = useCallback(() => {
    const run = active.current;
    if (!run) return;
    active.current = null;
    abortRun(run, callbacks.current.refreshHistory);
    setStatus({ phase: "ended", outcome: { status: "cancelled" } });
    callbacks.current.onAgentActiveChange?.(false);
  }, []);

  // Leaving the page (or the document) only lets go of the run: it goes on on the server and is
  // reattached when the document is opened again. Only Stop and a new prompt cancel a run.
  useEffect(
    () => () => {
      const run = active.current;
      active.current = null;
      if (!run) return;
      run.controller.abort();
      callbacks.current.onAgentActiveChange?.(false);
    },
    [],
  );

  /** Empties the conversation shown (after the stored one was deleted). */
  const clear = useCallback(() => dispatch({ type: "clear" }), []);

  return { items, status, isRunning: status.phase === "running", send, stop, clear };
}
