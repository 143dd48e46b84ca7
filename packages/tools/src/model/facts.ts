import type * as Y from "yjs";
import { type EditorView, holds, type Stamp } from "./observe.ts";
import { REMOVES_BLOCKS, REMOVES_CONCURRENT, REMOVES_TEXT } from "./op-kinds.ts";
import type { Op } from "./operations.ts";

// What the model promises about the text people and the agent wrote. A fact is a marker word that
// was typed, pasted or written by a tool, or a block id a successful tool call returned. A fact may
// only be missing at the end when an op that removes things on purpose removed it:
//  - on its own copy, where the op saw it (a deletion, an undo, the agent replacing what it read);
//  - or concurrently, by deleting the shared type of a block the fact was ever seen in (Yjs drops
//    what is written into a type deleted at the same time: typing into a paragraph someone else
//    deleted, or merged away with Backspace, is lost, and that is what those edits mean).
// A fact split by a concurrent insertion inside it (both edits kept, interleaved) is not lost.
// Any other loss is a violation.

export class ModelViolation extends Error {
  override name = "ModelViolation";
}

/** One op that ran on a copy (or the agent's editor), as the facts and the hazard rules need it. */
export interface OpRecord {
  step: number;
  op: Op;
  /** "step 12 merge on copy 1", for messages. */
  label: string;
  stamp: Stamp | null;
  /** Block ids whose shared types the op deleted. */
  destroyed: Set<string>;
  /** Block ids in which the op deleted a text node's shared map (for diagnosis). */
  textNodesRemoved: Set<string>;
  /** Block ids the op wrote into or changed (hazards.ts). */
  edited: Set<string>;
  /** Block ids the op recreated or took a text node from, not on purpose (hazards.ts). */
  removed: Set<string>;
}

interface Fact {
  kind: "text" | "block";
  value: string;
  /** The op that wrote or claimed it. */
  origin: string;
  /** The creating copy's Yjs snapshot right after: ops it holds came before the fact. */
  createdAt: Y.Snapshot;
  /** Every block id it was ever seen in (with the blocks holding those), on any copy. */
  homes: Set<string>;
  /** Ops that removed it where they saw it. */
  removedBy: string[];
}

function isPresent(fact: Fact, view: EditorView): boolean {
  return fact.kind === "text" ? view.text.includes(fact.value) : view.blocks.has(fact.value);
}

/**
 * Whether `value` reads in `text` split once by other text (`ZAAA` + `pasted` + `AC`): what a
 * concurrent insertion inside a word leaves — both edits kept, interleaved as Yjs orders them.
 */
function isSplitIn(value: string, text: string): boolean {
  for (let cut = 1; cut < value.length; cut++) {
    const head = value.slice(0, cut);
    for (let at = text.indexOf(head); at !== -1; at = text.indexOf(head, at + 1)) {
      if (text.indexOf(value.slice(cut), at + head.length + 1) !== -1) return true;
    }
  }
  return false;
}

function homesIn(fact: Fact, view: EditorView): string[] {
  if (fact.kind === "block") {
    const block = view.blocks.get(fact.value);
    return block === undefined ? [] : [fact.value, ...block.ancestors];
  }
  const homes: string[] = [];
  for (const [id, block] of view.blocks) if (block.text.includes(fact.value)) homes.push(id);
  return homes;
}

export class Facts {
  private readonly facts: Fact[] = [];
  readonly records: OpRecord[] = [];

  /** Adds a fact written (or claimed) by `origin`; it must be present in `view` now. */
  add(kind: Fact["kind"], value: string, origin: string, view: EditorView, createdAt: Y.Snapshot): void {
    const fact: Fact = { kind, value, origin, createdAt, homes: new Set(), removedBy: [] };
    if (!isPresent(fact, view)) {
      throw new ModelViolation(
        `${origin}: ${kind === "text" ? "wrote" : "returned"} "${value}", which its copy does not hold right after`,
      );
    }
    this.facts.push(fact);
    this.see(view);
  }

  /** Notes where every fact present in `view` sits. */
  see(view: EditorView): void {
    for (const fact of this.facts) for (const home of homesIn(fact, view)) fact.homes.add(home);
  }

  /**
   * Checks a local op against the facts its copy held before it: each one it removed must be
   * removable by an op of its kind, and the agent may only remove text it has read.
   */
  local(
    record: OpRecord,
    before: EditorView,
    after: EditorView,
    agentHasRead?: (text: string) => boolean,
  ): void {
    for (const fact of this.facts) {
      if (!isPresent(fact, before) || isPresent(fact, after)) continue;
      const allowed = fact.kind === "text" ? REMOVES_TEXT : REMOVES_BLOCKS;
      if (!allowed.has(record.op.kind)) {
        throw new ModelViolation(
          `${record.label} removed ${fact.kind} "${fact.value}" (from ${fact.origin}) from its own copy`,
        );
      }
      if (fact.kind === "text" && agentHasRead !== undefined && !agentHasRead(fact.value)) {
        throw new ModelViolation(
          `${record.label} removed "${fact.value}" (from ${fact.origin}), which the agent never read`,
        );
      }
      fact.removedBy.push(record.label);
    }
    this.records.push(record);
    this.see(after);
  }

  /**
   * The ops, concurrent with `fact`, that deleted the shared type of a block it was seen in and may
   * (`intended`) or may not mean to remove it: text goes with a block deleted on purpose, a block
   * id with any op that may remove ids.
   */
  private concurrentRemovers(fact: Fact, intended: boolean): OpRecord[] {
    const kinds = fact.kind === "text" ? REMOVES_CONCURRENT : REMOVES_BLOCKS;
    return this.records.filter(
      (record) =>
        record.stamp !== null &&
        kinds.has(record.op.kind) === intended &&
        [...record.destroyed].some((id) => fact.homes.has(id)) &&
        !holds(fact.createdAt, record.stamp),
    );
  }

  /**
   * Whether a text fact is still there, split by an op concurrent with it that wrote into a block
   * it was seen in: nothing of it is lost, another edit landed inside it.
   */
  private splitByConcurrentEdit(fact: Fact, view: EditorView): boolean {
    if (fact.kind !== "text") return false;
    const concurrentWriter = this.records.some(
      (record) =>
        record.stamp !== null &&
        [...record.edited].some((id) => fact.homes.has(id)) &&
        !holds(fact.createdAt, record.stamp),
    );
    if (!concurrentWriter) return false;
    return [...view.blocks.values()].some((block) => isSplitIn(fact.value, block.text));
  }

  /** Every fact missing from `view` (the converged document) without an excuse, described. */
  unexcused(view: EditorView): string[] {
    const problems: string[] = [];
    for (const fact of this.facts) {
      if (isPresent(fact, view) || fact.removedBy.length > 0) continue;
      if (this.concurrentRemovers(fact, true).length > 0) continue;
      if (this.splitByConcurrentEdit(fact, view)) continue;
      const recreated = this.concurrentRemovers(fact, false).map((record) => record.label);
      const textNodes = this.records
        .filter(
          (record) =>
            record.stamp !== null &&
            [...record.textNodesRemoved].some((id) => fact.homes.has(id)) &&
            !holds(fact.createdAt, record.stamp),
        )
        .map((record) => record.label);
      problems.push(
        `${fact.kind} "${fact.value}" (from ${fact.origin}, seen in ${[...fact.homes].join(", ")}) is gone` +
          (recreated.length > 0 ? `; its block was recreated by ${recreated.join(", ")}` : "") +
          (textNodes.length > 0 ? `; a text node of its block was removed by ${textNodes.join(", ")}` : ""),
      );
    }
    return problems;
  }
}
