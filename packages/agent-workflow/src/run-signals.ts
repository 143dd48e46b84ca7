// Signals that let a step waiting in one process hear at once what another instance recorded: a
// tool call's result, or the writer's Stop. They carry ids only; the step reads what changed from
// the store. By default signals stay in this process (the local world, PGlite: one process); the
// app plugs in a transport between instances (`configureRunSignals`: PostgreSQL LISTEN/NOTIFY),
// which must hand every signal, this process's own included, to `receiveRunSignal`. Kept on
// globalThis because Next bundles route handlers and workflow steps apart.

import type { RunSignal } from "@coauthor/types";
import { log } from "./log.ts";

/** Carries a signal to every instance, this one included. */
export type RunSignalTransport = (signal: RunSignal) => Promise<void>;

type Listeners = Map<string, Set<() => void>>;
interface Holder {
  listeners: Listeners;
  transport?: RunSignalTransport;
}

const KEY = Symbol.for("coauthor.run-signals");

function holder(): Holder {
  const global = globalThis as typeof globalThis & { [KEY]?: Holder };
  global[KEY] ??= { listeners: new Map() };
  return global[KEY];
}

const keyOf = ({ runId, toolCallId }: RunSignal) => `${runId}\u0000${toolCallId ?? ""}`;

/** Plugs in the transport between instances (call once at server start; `undefined`: in-process). */
export function configureRunSignals(transport: RunSignalTransport | undefined): void {
  holder().transport = transport;
}

/** Hands a signal that reached this process to the steps here that wait on it. */
export function receiveRunSignal(signal: RunSignal): void {
  for (const listener of holder().listeners.get(keyOf(signal)) ?? []) listener();
}

function send(signal: RunSignal): void {
  const { transport } = holder();
  if (!transport) {
    receiveRunSignal(signal);
    return;
  }
  // A lost signal delays its step until the store is next read (the safety net), nothing more.
  transport(signal).catch((error: unknown) => log.warn("run signal not sent", { ...signal, error }));
}

function subscribe(signal: RunSignal, listener: () => void): () => void {
  const { listeners } = holder();
  const key = keyOf(signal);
  let set = listeners.get(key);
  if (!set) {
    set = new Set();
    listeners.set(key, set);
  }
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(key);
  };
}

/** Tells every instance that a result for this tool call was recorded. */
export function notifyToolResult(runId: string, toolCallId: string): void {
  send({ runId, toolCallId });
}

/** Tells every instance that the run was stopped (its stored status says so). */
export function notifyStop(runId: string): void {
  send({ runId });
}

/** Calls `listener` whenever a result for this tool call is signalled; returns the unsubscribe. */
export function onToolResult(runId: string, toolCallId: string, listener: () => void): () => void {
  return subscribe({ runId, toolCallId }, listener);
}

/** Calls `listener` whenever a Stop of this run is signalled; returns the unsubscribe. */
export function onStop(runId: string, listener: () => void): () => void {
  return subscribe({ runId }, listener);
}
