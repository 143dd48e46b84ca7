// The checks of one document after a chaos round, one per invariant: every copy converges, every
// acknowledged edit is in every copy once, storage and the API hold what the copies hold, and each
// agent tool call ran at most once. Each violation goes to `violate`, named by its invariant.
import type postgres from "postgres";
import type { AppServer } from "../lib/app-server.ts";
import { SyncClient } from "../lib/sync-client.ts";
import type { ChaosRun } from "./agent-runs.ts";
import {
  type DocumentState,
  difference,
  documentStateOf,
  occurrences,
  storedDocumentState,
} from "./document-state.ts";
import type { Participant } from "./participants.ts";

/** How long, once everything healed, copies and storage get to agree (sync and appends are async). */
export const SETTLE_MS = 20_000;
/**
 * How long storage gets to catch up with the copies: a failed save is retried with a backoff of up
 * to 30 s (apps/editor/src/server/collab/document-saves.ts).
 */
const STORAGE_SETTLE_MS = 45_000;

export const seconds = (ms: number) => (ms / 1000).toFixed(1);
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Polls `read` every `everyMs` until `agree` holds or `timeoutMs` passed; returns the last reading. */
export async function settle<T>(
  read: () => Promise<T> | T,
  agree: (value: T) => boolean,
  timeoutMs = SETTLE_MS,
  everyMs = 250,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (agree(value) || Date.now() > deadline) return value;
    await pause(everyMs);
  }
}

const same = (a: DocumentState, b: DocumentState) =>
  a.markdown === b.markdown && a.blockIds.join() === b.blockIds.join();

/** One document of the round: its copies (participants on it) and the agent runs asked on it. */
export interface CheckedDocument {
  name: string;
  documentId: string;
  copies: Participant[];
  runs: ChaosRun[];
  /** When the round's work began (times in the details count from it). */
  began: number;
}

/** Where the checks look: every instance, storage, and the API's Markdown on an instance. */
export interface CheckSources {
  servers: AppServer[];
  sql: postgres.Sql;
  ownerCookie: string;
  markdownOn: (instance: number) => Promise<string>;
  /** The new copies the checks open, for the round to close. */
  fresh: SyncClient[];
}

/** Checks one document's invariants after the round. */
export async function checkDocument(
  { name, documentId, copies, runs, began }: CheckedDocument,
  { servers, sql, ownerCookie, markdownOn, fresh }: CheckSources,
  violate: (invariant: string, detail: string) => void,
): Promise<void> {
  // All copies converge: the same Markdown and the same block ids.
  const states = await settle(
    () => copies.map((copy) => documentStateOf(copy.editor)),
    (all) => all.every((state) => same(state, all[0] as DocumentState)),
  );
  const reference = states[0] as DocumentState;
  for (const [index, state] of states.entries()) {
    if (!same(state, reference))
      violate(
        "copies converge",
        `${name}: ${copies[index]?.label}'s copy differs from ${copies[0]?.label}'s: ${difference(state, reference)}`,
      );
  }
  // Every edit acknowledged by the server is in every copy, once.
  for (const author of copies) {
    for (const [index, state] of states.entries()) {
      const wrong = author.typed.filter((typed) => occurrences(state.text, typed.marker) !== 1);
      if (wrong.length === 0) continue;
      const described = wrong.slice(0, 8).map((typed) => {
        const acknowledged =
          typed.acknowledgedAt === null
            ? "never acknowledged"
            : `acknowledged +${seconds(typed.acknowledgedAt - began)} s`;
        return `${typed.marker} ×${occurrences(state.text, typed.marker)} (typed +${seconds(typed.typedAt - began)} s, ${acknowledged})`;
      });
      violate(
        "acknowledged edits kept",
        `${name}: ${wrong.length} of ${author.label}'s ${author.typed.length} markers not once in ${copies[index]?.label}'s copy: ${described.join("; ")}`,
      );
    }
  }
  // A new copy on each instance, the API's Markdown on each, and storage itself: the same document.
  for (const [instance, server] of servers.entries()) {
    const copy = new SyncClient({ baseURL: server.url, cookie: ownerCookie, documentId });
    fresh.push(copy);
    await copy.synced(20_000);
    const state = await settle(
      () => documentStateOf(copy.bound.editor),
      (value) => same(value, reference),
    );
    if (!same(state, reference))
      violate(
        "copies converge",
        `${name}: a new copy on instance ${instance} differs: ${difference(state, reference)}`,
      );
    const exported = await markdownOn(instance);
    if (exported !== reference.markdown)
      violate(
        "storage holds every edit",
        `${name}: documents.export on instance ${instance} differs: ${difference({ ...reference, markdown: exported }, reference)}`,
      );
  }
  const stored = await settle(
    () => storedDocumentState(sql, documentId),
    (value) => same(value, reference),
    STORAGE_SETTLE_MS,
    1_000,
  );
  if (!same(stored, reference)) {
    // Per writer, the first marker storage lacks (every later one of theirs is usually
    // unreadable behind it: Yjs keeps a writer's updates after a gap pending).
    const missing = copies.flatMap((copy) => {
      const lost = copy.typed.filter((typed) => occurrences(stored.text, typed.marker) !== 1);
      const first = lost[0];
      if (!first) return [];
      const acknowledged =
        first.acknowledgedAt === null
          ? "never acknowledged"
          : `acknowledged +${seconds(first.acknowledgedAt - began)} s`;
      return [
        `${copy.label} (instance ${copy.instance}): ${lost.length} of ${copy.typed.length} from ${first.marker} (typed +${seconds(first.typedAt - began)} s, ${acknowledged})`,
      ];
    });
    violate(
      "storage holds every edit",
      `${name}: storage (snapshot + update log) differs from the copies: ${difference(stored, reference)}; markers not once in storage: ${missing.join("; ") || "none"}`,
    );
  }
  // Agent runs: each tool call ran at most once, by the participant's copy or by the server
  // executor (issue #39: it runs a call no tab takes — the run's start answer may even have been
  // lost, so the participant never knew the run), and its marker is there at most once; exactly
  // once when someone is known to have run it (the participant, or a successful tool-result the
  // participant did not post).
  for (const run of runs) {
    const ran = run.executed.filter((call) => call.ok).length;
    if (ran > 1 || run.executed.length > new Set(run.executed.map((call) => call.toolCallId)).size)
      violate(
        "tool calls at most once",
        `${name}: run ${run.runId} (${run.prompt}) had ${ran} tool calls run`,
      );
    const ranElsewhere = run.events.some(
      (event) =>
        event.type === "tool-result" &&
        event.ok &&
        !run.executed.some((call) => call.toolCallId === event.toolCallId),
    );
    const count = occurrences(reference.text, run.marker);
    if (count > 1 || ((ran > 0 || ranElsewhere) && count !== 1))
      violate(
        "tool calls at most once",
        `${name}: run ${run.runId} (${run.prompt}): its marker occurs ${count} times, its tool ran ${ran} times here${ranElsewhere ? " and once on the server" : ""}`,
      );
    // What the driver went through, for the diagnosis: reattachments, refused results.
    const story = `${run.events.length} events, ${run.reattached} reattachments${run.notes.length > 0 ? `; ${run.notes.slice(0, 4).join("; ")}` : ""}`;
    for (const problem of run.problems)
      violate("runs end", `${name}: run ${run.runId} (${run.prompt}) ${problem} (${story})`);
  }
}
