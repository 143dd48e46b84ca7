import type { LexicalEditor } from "lexical";
import * as Y from "yjs";
import { runEditorTool } from "../editor-tools.ts";
import { type BoundDocumentEditor, yjsUpdateFromMarkdown } from "../yjs-document.ts";
import { AgentSession, mergesWithNeighbourList } from "./agent-ops.ts";
import { type Copy, createAgentEditor, createCopy, nextTask } from "./copies.ts";
import { Facts, ModelViolation, type OpRecord } from "./facts.ts";
import { type Effects, Hazards, hazardRemovals, historyEffects, predictEffects } from "./hazards.ts";
import { runHumanEdit } from "./human-ops.ts";
import { checkQuiescence } from "./invariants.ts";
import { changedBlocks, type EditorView, type LocalChange, recordLocal, viewOf } from "./observe.ts";
import {
  type AgentOp,
  type HistoryOp,
  type HumanOp,
  isAgentOp,
  isHistoryOp,
  isHumanOp,
  type NetOp,
  type Op,
  type Scenario,
} from "./operations.ts";
import { Relay } from "./relay.ts";
import { seedDocument } from "./seed-documents.ts";
import { markerWord } from "./tokens.ts";

export interface ReplayOptions {
  /** Run ops that meet a known hazard of the binding too (hazards.ts); the invariants then catch them. */
  runHazards: boolean;
  /** Called after each op (and once more after quiescence, with op null), for diagnosis. */
  trace?: (step: number, op: Op | null, world: World) => void;
}

/** What a replay did, for the test's statistics. */
export interface ReplaySummary {
  ops: number;
  /** Ops that ran, by kind (an op with nothing to aim at does not run). */
  ran: Map<string, number>;
  /** Agent calls refused, by failure code. */
  refused: Map<string, number>;
  /** Ops left out because they would meet a known hazard, by kind. */
  excluded: Map<string, number>;
}

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/**
 * Client ids: copies are 1, 2, …; the agent's mirror has its own (its edits reach the writer's
 * document as its own client's). Yjs orders concurrent insertions at one place by client id.
 */
const AGENT_CLIENT_ID = 100;

class World {
  readonly copies: Copy[];
  readonly agent: BoundDocumentEditor;
  readonly session: AgentSession;
  readonly relay: Relay;
  readonly facts = new Facts();
  readonly hazards: Hazards;
  readonly summary: ReplaySummary;
  private markers = 0;
  /** The kind of each copy's last edit: consecutive typing is one undo step, as in the browser. */
  private readonly lastEdit = new Map<number, string>();

  constructor(scenario: Scenario, options: ReplayOptions) {
    const seed = yjsUpdateFromMarkdown(seedDocument(scenario.document));
    this.copies = Array.from({ length: scenario.copies }, (_, index) => createCopy(index, seed, index + 1));
    this.agent = createAgentEditor(this.copy(0), AGENT_CLIENT_ID);
    this.session = new AgentSession(this.agent.editor);
    this.relay = new Relay(
      this.copies.map((copy) => copy.doc),
      seed,
      { reorder: scenario.reorder },
    );
    this.hazards = new Hazards(this.facts, !options.runHazards);
    this.summary = {
      ops: scenario.ops.length,
      ran: new Map(),
      refused: new Map(),
      excluded: this.hazards.excluded,
    };
    for (const copy of this.copies) this.facts.see(viewOf(copy.editor));
  }

  copy(n: number): Copy {
    const copy = this.copies[n % this.copies.length];
    if (copy === undefined) throw new Error("no copies");
    return copy;
  }

  private marker(author: "human" | "agent"): string {
    return markerWord(this.markers++, author);
  }

  async apply(op: Op, step: number): Promise<void> {
    if (isHumanOp(op)) await this.human(op, step);
    else if (isHistoryOp(op)) await this.history(op, step);
    else if (isAgentOp(op)) await this.agentCall(op, step);
    else await this.net(op);
  }

  /** Whether `kind` may run on a copy in state `snapshot` given its effects (predicted only when it may meet another copy's op). */
  private async allowed(
    kind: string,
    snapshot: Y.Snapshot,
    predict: () => Effects | Promise<Effects>,
  ): Promise<boolean> {
    if (!this.hazards.mayMeet(snapshot)) return true;
    return this.hazards.allows(kind, snapshot, await predict());
  }

  /** Records a local op that ran: its effects on blocks, and what it did to the facts its copy held. */
  private record(
    step: number,
    op: Op,
    label: string,
    change: LocalChange<unknown>,
    views: { before: EditorView; after: EditorView },
    edited: Iterable<string>,
    agentHasRead?: (text: string) => boolean,
  ): void {
    const record: OpRecord = {
      step,
      op,
      label,
      stamp: change.stamp,
      destroyed: change.destroyed,
      textNodesRemoved: change.textNodesRemoved,
      edited: new Set([...edited, ...changedBlocks(views.before, views.after)]),
      removed: hazardRemovals(op.kind, change),
    };
    this.facts.local(record, views.before, views.after, agentHasRead);
  }

  private async human(op: HumanOp, step: number): Promise<void> {
    const copy = this.copy(op.copy);
    const marker = op.kind === "type" || op.kind === "paste" ? this.marker("human") : "";
    const snapshot = Y.snapshot(copy.doc);
    const run = (editor: LexicalEditor) => runHumanEdit(editor, op, marker);
    const predict = () =>
      predictEffects(copy.doc, op.kind, (editor) => {
        const touches = run(editor);
        return Array.isArray(touches) ? touches : [];
      });
    if (!(await this.allowed(op.kind, snapshot, predict))) return;
    const label = `step ${step} ${op.kind} on copy ${copy.index}`;
    const before = viewOf(copy.editor);
    const change = await recordLocal(copy.doc, async () => {
      // Typing goes on one undo step; any other edit starts a new one (the browser groups by time).
      if (!(op.kind === "type" && this.lastEdit.get(copy.index) === "type")) copy.undo.stopCapturing();
      const touches = run(copy.editor);
      await nextTask();
      return touches;
    });
    if (change.value === "known-issue") count(this.summary.excluded, `${op.kind} (Lexical removeText bug)`);
    if (!Array.isArray(change.value)) return;
    count(this.summary.ran, op.kind);
    this.lastEdit.set(copy.index, op.kind);
    const after = viewOf(copy.editor);
    this.record(step, op, label, change, { before, after }, change.value);
    if (marker !== "") this.facts.add("text", marker, label, after, Y.snapshot(copy.doc));
  }

  private async history(op: HistoryOp, step: number): Promise<void> {
    const copy = this.copy(op.copy);
    const stack = op.kind === "undo" ? copy.undo.undoStack : copy.undo.redoStack;
    if (stack.length === 0) return;
    const snapshot = Y.snapshot(copy.doc);
    if (!(await this.allowed(op.kind, snapshot, () => historyEffects(copy.doc, copy.undo, op.kind)))) return;
    const before = viewOf(copy.editor);
    const change = await recordLocal(copy.doc, async () => {
      if (op.kind === "undo") copy.undo.undo();
      else copy.undo.redo();
      await nextTask();
    });
    count(this.summary.ran, op.kind);
    this.lastEdit.set(copy.index, op.kind);
    const label = `step ${step} ${op.kind} on copy ${copy.index}`;
    this.record(step, op, label, change, { before, after: viewOf(copy.editor) }, []);
  }

  private async agentCall(op: AgentOp, step: number): Promise<void> {
    if (op.kind === "read" || op.kind === "newRun") {
      await (op.kind === "read" ? this.session.readDocument() : this.session.newRun());
      count(this.summary.ran, op.kind);
      return;
    }
    const marker = this.marker("agent");
    const call = this.session.call(op, marker);
    if (call === null) return;
    if (this.hazards.enabled && mergesWithNeighbourList(this.agent.editor, call)) {
      count(this.summary.excluded, `${call.tool} (list merge)`);
      return;
    }
    const snapshot = Y.snapshot(this.agent.doc);
    const predict = () =>
      predictEffects(this.agent.doc, op.kind, async (editor) => {
        const result = await runEditorTool(editor, call.tool, call.input);
        return result.ok && "blockIds" in result ? result.blockIds : [];
      });
    if (!(await this.allowed(call.tool, snapshot, predict))) return;
    const label = `step ${step} agent ${call.tool} ${JSON.stringify(call.input)}`;
    const before = viewOf(this.agent.editor);
    const change = await recordLocal(this.agent.doc, async () => {
      const result = await this.session.run(call);
      await nextTask();
      return result;
    });
    count(this.summary.ran, call.tool);
    const result = change.value;
    if (!result.ok) {
      count(this.summary.refused, result.code);
      if (change.stamp !== null)
        throw new ModelViolation(`${label} failed (${result.code}) but changed the document`);
      return;
    }
    const after = viewOf(this.agent.editor);
    if (call.writes !== null) this.session.wrote(call.writes);
    this.record(step, op, label, change, { before, after }, result.blockIds, (text) =>
      this.session.hasRead(text),
    );
    const created = Y.snapshot(this.agent.doc);
    if (call.writes !== null) this.facts.add("text", call.writes, label, after, created);
    for (const id of result.blockIds) {
      if (call.tool === "deleteBlocks") {
        if (after.blocks.has(id))
          throw new ModelViolation(`${label} reported deleting "${id}", which is still there`);
      } else this.facts.add("block", id, label, after, created);
    }
  }

  private async net(op: NetOp): Promise<void> {
    const index = op.copy % this.copies.length;
    if (op.kind === "disconnect") this.relay.disconnect(index);
    else if (op.kind === "reconnect") this.relay.connect(index);
    else {
      // Each message is its own task in a browser: the editors catch up between two.
      for (let n = 0; n < op.count; n++)
        if (this.relay.deliver(index, op.direction, op.pick + n)) await nextTask();
    }
    for (const copy of this.copies) this.facts.see(viewOf(copy.editor));
    count(this.summary.ran, op.kind);
  }

  dispose(): void {
    this.agent.dispose();
    for (const copy of this.copies) {
      copy.undo.destroy();
      copy.doc.destroy();
    }
    this.relay.server.destroy();
  }
}

/**
 * Replays a scenario from its seed document: every op in order, then every copy reconnected and
 * every message delivered, then the invariants (invariants.ts). Throws on the first violation.
 */
export async function replay(scenario: Scenario, options: ReplayOptions): Promise<ReplaySummary> {
  const world = new World(scenario, options);
  try {
    for (const [step, op] of scenario.ops.entries()) {
      await world.apply(op, step);
      options.trace?.(step, op, world);
    }
    await world.relay.settle(nextTask);
    options.trace?.(scenario.ops.length, null, world);
    await checkQuiescence(
      world.relay.server,
      [
        ...world.copies.map((copy) => ({ name: `copy ${copy.index}`, editor: copy.editor, doc: copy.doc })),
        { name: "the agent's editor", editor: world.agent.editor, doc: world.agent.doc },
      ],
      world.facts,
    );
    return world.summary;
  } finally {
    world.dispose();
  }
}

export type { World };
