// Agent runs driven through the faults the way the browser's panel drives them
// (apps/editor/src/components/assistant/run-follow.ts): events deduplicated by id, each tool call
// run once on the participant's copy — recorded in the shared document with its edit, and not run
// when the record is already there (another executor ran it), as the panel's `runOnce` does — and
// its result posted until an instance takes it, the stream reattached after the last event seen
// (Last-Event-ID) on whichever instance answers.
import { findCall, nextClock, recordCall, runEditorTool } from "@coauthor/tools";
import { isTerminalEvent, type RunEvent } from "@coauthor/types";
import { HeldRunLease } from "../lib/run-lease.ts";
import { RunStream } from "../lib/run-stream.ts";
import type { ObservedClient } from "./observed-client.ts";
import type { Participant } from "./participants.ts";

type ToolCall = Extract<RunEvent, { type: "tool-call" }>;

/** How long a run may take, from its start, before the round reports that it did not end. */
const RUN_BUDGET_MS = 90_000;
/** A stream silent this long (heartbeats count; the instances send one every 3 s) is reattached. */
const SILENCE_MS = 10_000;
/** How long after its deadline a result is still posted (the workflow judges it a little later). */
const DELIVERY_GRACE_MS = 10_000;
/** How long a start whose answer was lost looks for the run it may have started (as the panel). */
const LOST_START_BUDGET_MS = 30_000;

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** True for what a dying server or a cut link does to a request (reset, refused, aborted). */
export function connectionLost(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && error.name === "AbortError");
}

/** One agent run of a chaos round, as its participant saw it. */
export interface ChaosRun {
  participant: number;
  marker: string;
  prompt: string;
  runId: string | null;
  /** Why start attempts before the one taken failed (refused, unreachable). */
  startFailures: string[];
  events: RunEvent[];
  /** Per tool call id, how many tool-call events announced it. */
  announced: Map<string, number>;
  /** The tool calls run on the participant's copy, with whether the tool succeeded. */
  executed: { toolCallId: string; ok: boolean }[];
  /** Results posted and the answer that settled each (a status, or why it was given up). */
  deliveries: { toolCallId: string; outcome: string }[];
  /** The run's last event, once seen. */
  end: RunEvent | null;
  reattached: number;
  /** Broken promises of the server: a run that did not end, an event id seen twice. */
  problems: string[];
  /** What else happened on the way (a result refused, a reattachment refused), for the report. */
  notes: string[];
}

/** Posts a tool result to the instances in turn until one takes it (204) or refuses it for good. */
async function deliver(clients: ObservedClient[], call: ToolCall, result: unknown): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const client = clients[attempt % clients.length] as ObservedClient;
    let outcome: string;
    try {
      const response = await client.callback({
        hookToken: call.hookToken,
        toolCallId: call.toolCallId,
        result,
      });
      await response.arrayBuffer();
      if (response.status < 500) return String(response.status);
      outcome = String(response.status);
    } catch (error) {
      if (!connectionLost(error)) throw error;
      outcome = `unreachable (${error instanceof Error ? error.message : String(error)})`;
    }
    if (Date.now() > call.deadline + DELIVERY_GRACE_MS) return `gave up after ${outcome}`;
    await pause(Math.min(2_000, 250 * 2 ** Math.min(attempt, 3)));
  }
}

/** The next event of `stream`, or "silent" after `ms` without one, or null when the stream ended or broke. */
async function nextWithin(stream: RunStream, ms: number, run: ChaosRun): Promise<RunEvent | null | "silent"> {
  const next = stream.next().catch((error: unknown) => {
    if (!connectionLost(error)) throw error;
    return null;
  });
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<"silent">((done) => {
    timer = setTimeout(() => done("silent"), ms);
  });
  const first = await Promise.race([next, silence]);
  clearTimeout(timer);
  if (first === "silent") {
    // The read still pending ends when the stream is dropped; an error other than that is news.
    next.catch((error: unknown) => run.notes.push(`a dropped stream failed: ${String(error)}`));
  }
  return first;
}

/** Reattaches after `lastId` on `client`; null when that instance cannot be reached or is not ready. */
async function reattach(
  client: ObservedClient,
  runId: string,
  lastId: number,
  run: ChaosRun,
): Promise<RunStream | null> {
  try {
    const stream = await RunStream.attachAfter(client, runId, lastId < 0 ? undefined : lastId);
    if (stream.status === 200) return stream;
    stream.drop();
    if (stream.status < 500) run.notes.push(`reattaching was answered ${stream.status}`);
  } catch (error) {
    if (!connectionLost(error)) throw error;
  }
  return null;
}

/**
 * The run a start may have started though its answer was lost (an instance killed after admitting
 * it), found as the panel's `findLostStart` finds it: the participant's run going on the document,
 * if it is `prompt`'s, asked of the instances in turn while none answers; attached from its first
 * event. Null when no such run goes on: the start is asked again.
 */
async function attachLostStart(
  clients: ObservedClient[],
  documentId: string,
  prompt: string,
  run: ChaosRun,
): Promise<RunStream | null> {
  const until = Date.now() + LOST_START_BUDGET_MS;
  for (let attempt = 0; Date.now() < until; attempt++) {
    const client = clients[attempt % clients.length] as ObservedClient;
    try {
      const response = await client.fetch(
        `/api/llm/agent/active?documentId=${encodeURIComponent(documentId)}`,
      );
      if (response.ok) {
        const { run: active } = (await response.json()) as { run: { runId: string; prompt: string } | null };
        if (active?.prompt !== prompt) return null;
        const stream = await RunStream.attach(client, active.runId, 0);
        if (stream.status === 200) {
          run.notes.push("its start's answer was lost: attached to the run it started");
          return stream;
        }
        stream.drop();
      } else await response.arrayBuffer();
    } catch (error) {
      if (!connectionLost(error)) throw error;
    }
    await pause(250);
  }
  return null;
}

/**
 * Starts a run of `prompt` for `participant` (retrying while it is refused or unreachable, until
 * `startUntil`), then follows it to its last event, running each tool call once on the
 * participant's copy. `clients` are the participant's user on each instance (its own first).
 */
export async function driveRun(
  participant: Participant,
  clients: ObservedClient[],
  prompt: string,
  marker: string,
  startUntil: number,
): Promise<ChaosRun> {
  const run: ChaosRun = {
    participant: participant.index,
    marker,
    prompt,
    runId: null,
    startFailures: [],
    events: [],
    announced: new Map(),
    executed: [],
    deliveries: [],
    end: null,
    reattached: 0,
    problems: [],
    notes: [],
  };
  let stream: RunStream | null = null;
  while (!stream) {
    if (Date.now() > startUntil) return run;
    try {
      const started = await RunStream.start(participant.client, participant.documentId, prompt);
      if (started.status === 200 && started.runId) stream = started;
      else {
        run.startFailures.push(`HTTP ${started.status}`);
        started.drop();
      }
    } catch (error) {
      if (!connectionLost(error)) throw error;
      run.startFailures.push(`unreachable (${error instanceof Error ? error.message : String(error)})`);
      stream = await attachLostStart(clients, participant.documentId, prompt, run);
    }
    if (!stream) await pause(500);
  }
  run.runId = stream.runId;
  const lease = HeldRunLease.hold(clients, stream.runId);
  try {
    await followRun(participant, clients, stream, run);
  } finally {
    await lease.release();
  }
  return run;
}

/** Follows `run` to its last event (reattaching anywhere), running each tool call once. */
async function followRun(
  participant: Participant,
  clients: ObservedClient[],
  stream: RunStream,
  run: ChaosRun,
): Promise<void> {
  const runId = stream.runId;
  const deadline = Date.now() + RUN_BUDGET_MS;
  const results = new Map<string, { result: unknown; delivered: boolean }>();
  let lastId = -1;
  let turn = 0;
  let current: RunStream | null = stream;
  while (!run.end) {
    if (Date.now() > deadline) {
      current?.drop();
      run.problems.push(`did not end within ${RUN_BUDGET_MS / 1000} s (last event ${lastId})`);
      return;
    }
    if (!current) {
      current = await reattach(clients[turn++ % clients.length] as ObservedClient, runId, lastId, run);
      if (!current) {
        await pause(300);
        continue;
      }
      run.reattached++;
    }
    const event = await nextWithin(current, SILENCE_MS, run);
    if (event === null || event === "silent") {
      current.drop();
      current = null;
      continue;
    }
    // A replay after reattaching starts after the last id seen; a repeat would be the server's error.
    if (event.id <= lastId) {
      run.problems.push(`event ${event.id} came again after ${lastId}`);
      continue;
    }
    lastId = event.id;
    run.events.push(event);
    if (isTerminalEvent(event)) {
      run.end = event;
      current.drop();
      break;
    }
    if (event.type !== "tool-call") continue;
    run.announced.set(event.toolCallId, (run.announced.get(event.toolCallId) ?? 0) + 1);
    let known = results.get(event.toolCallId);
    if (known?.delivered) continue;
    if (!known) {
      const copy = participant.sync.bound;
      const key = `${runId}:${event.toolCallId}`;
      const recorded = findCall(copy.doc, key);
      if (recorded !== null) {
        run.notes.push(`${event.toolCallId} was already run elsewhere`);
        known = { result: recorded.output, delivered: false };
      } else {
        const from = nextClock(copy.doc);
        const result = await runEditorTool(copy.editor, event.toolName, event.input);
        recordCall(copy.doc, key, result, copy, from);
        run.executed.push({ toolCallId: event.toolCallId, ok: result.ok });
        known = { result, delivered: false };
      }
      results.set(event.toolCallId, known);
    }
    const outcome = await deliver(clients, event, known.result);
    run.deliveries.push({ toolCallId: event.toolCallId, outcome });
    known.delivered = outcome === "204";
    if (!known.delivered) run.notes.push(`the result of ${event.toolCallId} was answered ${outcome}`);
  }
}
