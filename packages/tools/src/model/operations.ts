import { type BlockType, blockTypeSchema } from "@coauthor/types/tools";
import fc from "fast-check";

// One run of the model is a plain list of op records: people editing their copies, the agent
// calling its tools on its copy, and the network delivering (or not) what each copy sent. Every
// number in an op is taken modulo what the document holds when the op runs, so any sub-list still
// replays, which is what lets fast-check shrink a failure to the few ops that matter.

/** An edit a person makes in copy `copy` (modulo the number of copies). */
export type HumanOp =
  /** Types a marker word at a caret. */
  | { kind: "type"; copy: number; unit: number; at: number }
  /** Deletes from a caret over up to two more units (Backspace over a selection). */
  | { kind: "delete"; copy: number; unit: number; at: number; span: number; length: number }
  /** Splits the unit at a caret (Enter). */
  | { kind: "enter"; copy: number; unit: number; at: number }
  /** Backspace at the start of a unit: joins it to the one before. */
  | { kind: "merge"; copy: number; unit: number }
  /** Toggles bold over a stretch of one unit. */
  | { kind: "bold"; copy: number; unit: number; at: number; length: number }
  /** Pastes Markdown (a template holding a marker word) at a caret. */
  | { kind: "paste"; copy: number; unit: number; at: number; template: number };

/** Undo or redo of the copy's own edits (Yjs' undo manager, as the browser's collaboration plugin). */
export type HistoryOp = { kind: "undo" | "redo"; copy: number };

/** Where the agent puts blocks: `anchor` picks a block from its last read. */
export type Where = "start" | "end" | "before" | "after";

/** A tool call of the agent; `block`/`anchor` pick from the blocks and list items of its last read. */
export type AgentOp =
  /** The model reads the document (the stale guard remembers what it saw). */
  | { kind: "read" }
  /** A new agent run: a new stale guard, then a read. */
  | { kind: "newRun" }
  | { kind: "insertBlocks"; template: number; where: Where; anchor: number }
  | { kind: "replaceBlock"; block: number; template: number }
  | { kind: "replaceText"; block: number; word: number; everywhere: boolean; all: boolean }
  | { kind: "deleteBlocks"; block: number; count: number }
  | {
      kind: "formatText";
      block: number;
      at: number;
      length: number;
      format: "bold" | "italic";
      remove: boolean;
    }
  | { kind: "setBlockType"; block: number; type: BlockType }
  | { kind: "moveBlock"; block: number; where: Where; anchor: number };

/** The network: deliver queued messages of one connection, or close / reopen it. */
export type NetOp =
  | { kind: "deliver"; copy: number; direction: "up" | "down"; pick: number; count: number }
  | { kind: "disconnect"; copy: number }
  | { kind: "reconnect"; copy: number };

export type Op = HumanOp | HistoryOp | AgentOp | NetOp;

export type AgentToolKind = Exclude<AgentOp["kind"], "read" | "newRun">;

export interface Scenario {
  /** Which seed document (modulo the list in seed-documents.ts). */
  document: number;
  /** How many copies of the document, 2–4; copy 0 is the one the agent works on. */
  copies: number;
  /** Whether a connection may deliver its messages out of order. */
  reorder: boolean;
  ops: Op[];
}

export function isHumanOp(op: Op): op is HumanOp {
  return ["type", "delete", "enter", "merge", "bold", "paste"].includes(op.kind);
}

export function isHistoryOp(op: Op): op is HistoryOp {
  return op.kind === "undo" || op.kind === "redo";
}

export function isNetOp(op: Op): op is NetOp {
  return op.kind === "deliver" || op.kind === "disconnect" || op.kind === "reconnect";
}

export function isAgentOp(op: Op): op is AgentOp {
  return !isHumanOp(op) && !isHistoryOp(op) && !isNetOp(op);
}

const pick = fc.nat({ max: 1000 });
const copy = fc.nat({ max: 3 });
const where = fc.constantFrom<Where>("start", "end", "before", "after");

const humanOp: fc.Arbitrary<HumanOp> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("type"), copy, unit: pick, at: pick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("delete"),
      copy,
      unit: pick,
      at: pick,
      span: fc.nat({ max: 2 }),
      length: pick,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("enter"), copy, unit: pick, at: pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("merge"), copy, unit: pick }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("bold"), copy, unit: pick, at: pick, length: pick }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("paste"), copy, unit: pick, at: pick, template: pick }),
  },
);

const historyOp: fc.Arbitrary<HistoryOp> = fc.record({ kind: fc.constantFrom("undo", "redo"), copy });

const agentOp: fc.Arbitrary<AgentOp> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: "read" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "newRun" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("insertBlocks"), template: pick, where, anchor: pick }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("replaceBlock"), block: pick, template: pick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("replaceText"),
      block: pick,
      word: pick,
      everywhere: fc.boolean(),
      all: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("deleteBlocks"),
      block: pick,
      count: fc.integer({ min: 1, max: 2 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("formatText"),
      block: pick,
      at: pick,
      length: pick,
      format: fc.constantFrom<"bold" | "italic">("bold", "italic"),
      remove: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("setBlockType"),
      block: pick,
      type: fc.constantFrom(...blockTypeSchema.options),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("moveBlock"), block: pick, where, anchor: pick }) },
);

const netOp: fc.Arbitrary<NetOp> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant("deliver"),
      copy,
      direction: fc.constantFrom<"up" | "down">("up", "down"),
      pick,
      count: fc.integer({ min: 1, max: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("disconnect"), copy }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reconnect"), copy }) },
);

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: humanOp },
  { weight: 1, arbitrary: historyOp },
  { weight: 4, arbitrary: agentOp },
  { weight: 7, arbitrary: netOp },
);

/**
 * A random scenario: a seed document, 2–4 copies, in-order or reordering delivery (either when
 * `reorder` is not given), and up to `maxOps` ops.
 */
export function scenarioArbitrary(options: { reorder?: boolean; maxOps: number }): fc.Arbitrary<Scenario> {
  return fc.record({
    document: fc.nat({ max: 2 }),
    copies: fc.integer({ min: 2, max: 4 }),
    reorder: options.reorder === undefined ? fc.boolean() : fc.constant(options.reorder),
    ops: fc.array(op, { minLength: 1, maxLength: options.maxOps, size: "max" }),
  });
}
