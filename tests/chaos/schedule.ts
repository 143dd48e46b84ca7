// The seeded schedule of a chaos run: per round, who writes where, which agent runs go, and the
// faults the nemesis injects and when. Everything here is drawn from the round's seed alone.
import { Random, roundSeed } from "./random.ts";

/** One of the two app instances. */
export type InstanceIndex = 0 | 1;

/** A fault, `at` ms after the round's work began. */
export type Fault =
  /** The instance's processes get the signal (SIGTERM: a graceful stop), then it is started again. */
  | { kind: "sigkill" | "sigterm"; at: number; instance: InstanceIndex; downMs: number }
  /** The proxy between the instances and the service refuses or stalls every connection for a while. */
  | { kind: "redis-down" | "postgres-down"; at: number; durationMs: number; mode: "refuse" | "stall" }
  /** These participants' sync sockets are cut (each client reconnects by itself). */
  | { kind: "socket-cut"; at: number; participants: number[] }
  /** A participant's sync client goes offline (disconnected), then connects again. */
  | { kind: "client-offline"; at: number; participant: number; durationMs: number }
  /** The link of the clients behind an instance's slow proxy gets `delayMs` each way for a while. */
  | { kind: "slow-link"; at: number; instance: InstanceIndex; delayMs: number; durationMs: number };

export type FaultKind = Fault["kind"];

/** A co-editor typing, formatting and splitting paragraphs of their own in one document. */
export interface WriterPlan {
  document: number;
  instance: InstanceIndex;
  /** Connects through the instance's slow proxy (the `slow-link` fault's victims). */
  slow: boolean;
  /** Pause between two edits. */
  paceMs: number;
}

/** A writer who asks the agent for one marker paragraph after another, their copy running its tools. */
export interface AgentPlan {
  document: number;
  instance: InstanceIndex;
  slow: boolean;
  prompt: "append" | "heading";
  /** When its first run starts. */
  startMs: number;
}

/** One round of the schedule. */
export interface RoundPlan {
  seed: number;
  round: number;
  /** The round's own seed (derived from `seed` and `round`). */
  roundSeed: number;
  documents: number;
  /** How long writers write and agents start runs; faults begin within it. */
  activeMs: number;
  writers: WriterPlan[];
  agents: AgentPlan[];
  faults: Fault[];
}

const FAULT_WEIGHTS: readonly (readonly [FaultKind, number])[] = [
  ["sigkill", 2],
  ["sigterm", 1.5],
  ["redis-down", 1.5],
  ["postgres-down", 1.5],
  ["socket-cut", 1.5],
  ["client-offline", 1.5],
  ["slow-link", 1],
];

/** Every kind of fault the nemesis knows. */
export const FAULT_KINDS: readonly FaultKind[] = FAULT_WEIGHTS.map(([kind]) => kind);

/** Roughly how long a fault lasts (a restart takes a few seconds), to make two of them overlap. */
function span(fault: Fault): number {
  switch (fault.kind) {
    case "sigkill":
    case "sigterm":
      return fault.downMs + 5_000;
    case "socket-cut":
      return 300;
    default:
      return fault.durationMs;
  }
}

function drawFault(
  random: Random,
  at: number,
  participants: number,
  slowInstances: InstanceIndex[],
  busy: Fault | undefined,
): Fault {
  let kind = random.weighted(FAULT_WEIGHTS);
  if (kind === "slow-link" && slowInstances.length === 0) kind = "socket-cut";
  const instance: InstanceIndex = random.chance(0.5) ? 1 : 0;
  switch (kind) {
    case "sigkill":
    case "sigterm": {
      // An instance already down at that moment: the other one goes too (both down at once).
      const other = busy && (busy.kind === "sigkill" || busy.kind === "sigterm") ? busy.instance : undefined;
      const target: InstanceIndex = other === undefined ? instance : other === 0 ? 1 : 0;
      return { kind, at, instance: target, downMs: random.int(0, 2_000) };
    }
    case "redis-down":
    case "postgres-down":
      return {
        kind,
        at,
        durationMs: random.int(1_000, 5_000),
        mode: random.chance(0.5) ? "refuse" : "stall",
      };
    case "socket-cut": {
      const count = random.int(1, 3);
      const victims = new Set<number>();
      while (victims.size < count) victims.add(random.int(0, participants - 1));
      return { kind, at, participants: [...victims].sort((a, b) => a - b) };
    }
    case "client-offline":
      return { kind, at, participant: random.int(0, participants - 1), durationMs: random.int(1_000, 5_000) };
    case "slow-link":
      return {
        kind,
        at,
        instance: random.pick(slowInstances),
        delayMs: random.int(100, 600),
        durationMs: random.int(2_000, 6_000),
      };
  }
}

/** Round `round` of the run seeded `seed`. */
export function planRound(seed: number, round: number): RoundPlan {
  const ownSeed = roundSeed(seed, round);
  const random = new Random(ownSeed);
  const documents = random.int(2, 3);
  const activeMs = random.int(9_000, 12_000);
  const firstInstance = random.int(0, 1);
  const writers: WriterPlan[] = Array.from({ length: random.int(6, 10) }, (_, index) => ({
    // Every document gets writers on both instances before any gets a third.
    document: Math.floor(index / 2) % documents,
    instance: ((index + firstInstance) % 2) as InstanceIndex,
    slow: random.chance(0.25),
    paceMs: random.int(150, 500),
  }));
  const agents: AgentPlan[] = Array.from({ length: random.int(3, 5) }, () => ({
    document: random.int(0, documents - 1),
    instance: random.chance(0.5) ? 1 : 0,
    slow: random.chance(0.2),
    prompt: random.chance(0.7) ? "append" : "heading",
    startMs: random.int(0, 1_500),
  }));
  const participants = writers.length + agents.length;
  const slowInstances = [...new Set([...writers, ...agents].filter((p) => p.slow).map((p) => p.instance))];
  const faults: Fault[] = [];
  let at = random.int(500, 3_000);
  for (let count = random.int(1, 3); faults.length < count && at < activeMs - 1_000; ) {
    const previous = faults.at(-1);
    const fault = drawFault(random, at, participants, slowInstances, previous);
    faults.push(fault);
    // The next one overlaps this one half of the time (two faults at once), else follows it.
    at = random.chance(0.5)
      ? fault.at + random.int(0, Math.max(0, span(fault) - 1))
      : fault.at + span(fault) + random.int(500, 2_500);
  }
  return { seed, round, roundSeed: ownSeed, documents, activeMs, writers, agents, faults };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A fault in a line, for a report: `+1.2 s sigkill instance 1 (restart after 0.8 s)`. */
export function describeFault(fault: Fault): string {
  const when = `+${seconds(fault.at)}`;
  switch (fault.kind) {
    case "sigkill":
    case "sigterm":
      return `${when} ${fault.kind} instance ${fault.instance} (restart after ${seconds(fault.downMs)})`;
    case "redis-down":
    case "postgres-down":
      return `${when} ${fault.kind} (${fault.mode}) for ${seconds(fault.durationMs)}`;
    case "socket-cut":
      return `${when} socket-cut participants ${fault.participants.join(", ")}`;
    case "client-offline":
      return `${when} client-offline participant ${fault.participant} for ${seconds(fault.durationMs)}`;
    case "slow-link":
      return `${when} slow-link instance ${fault.instance} +${fault.delayMs} ms for ${seconds(fault.durationMs)}`;
  }
}

/** The round's schedule, readable: the seed, the participants and the faults in order. */
export function describePlan(plan: RoundPlan): string {
  const where = (p: { document: number; instance: InstanceIndex; slow: boolean }) =>
    `doc ${p.document} on ${p.instance}${p.slow ? " (slow proxy)" : ""}`;
  return [
    `round ${plan.round} of seed ${plan.seed} (round seed ${plan.roundSeed}): ${plan.documents} documents, ${plan.activeMs} ms of work`,
    ...plan.writers.map((w, i) => `  participant ${i}: writer, ${where(w)}, an edit every ${w.paceMs} ms`),
    ...plan.agents.map(
      (a, i) =>
        `  participant ${plan.writers.length + i}: agent runs (${a.prompt}), ${where(a)}, from +${a.startMs} ms`,
    ),
    ...plan.faults.map((fault) => `  fault ${describeFault(fault)}`),
  ].join("\n");
}
