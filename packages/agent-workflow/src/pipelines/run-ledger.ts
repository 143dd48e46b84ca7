import { lastEvent } from "../run-outcomes.ts";
import { addUsage, type TokenUsage, zeroUsage } from "../usage.ts";
import { emitEvents } from "../workflows/agent/steps/emit-events.ts";
import type { TurnsPlace, TurnsResult } from "../workflows/agent/steps/turns-loop.ts";
import type { AgentRunOutcome, RunEventBody } from "../workflows/agent/types.ts";

const MAX_REPLY_CHARS = 20_000;

/**
 * What a run has done so far, kept by the workflow body (deterministic: a replay rebuilds it from
 * the steps' recorded results). It is the one place that numbers the run's frames: every step is
 * handed the next id and hands back the one after its last frame. Events the workflow itself
 * decides (a plan step starting, a branch taken) wait here and go out first with the next step
 * that writes, so they cost no step of their own.
 */
export class RunLedger {
  nextId: number;
  turnIndex = 0;
  toolCalls = 0;
  readonly usage: TokenUsage = zeroUsage();
  /** What the assistant said over the run, for the stored conversation. */
  readonly replies: string[] = [];
  lastText = "";
  private segment = 0;
  private queued: RunEventBody[] = [];

  readonly runId: string;

  constructor(runId: string, firstId: number) {
    this.runId = runId;
    this.nextId = firstId;
  }

  /** Queues events to go out with the next step that writes (or `flush`). */
  queue(...events: RunEventBody[]): void {
    this.queued.push(...events);
  }

  /** Writes the queued events now (before a step that writes nothing itself). */
  async flush(): Promise<void> {
    if (this.queued.length === 0) return;
    const events = this.queued;
    this.queued = [];
    this.nextId = await emitEvents(this.runId, this.nextId, events);
  }

  /** The place of the next turns step; it takes the queued events with it. */
  nextTurns(): TurnsPlace {
    const leading = this.queued;
    this.queued = [];
    return {
      segment: this.segment++,
      firstId: this.nextId,
      turnIndex: this.turnIndex,
      toolCallsBefore: this.toolCalls,
      leading,
    };
  }

  /** Adds what a turns step did; returns how the run must end, when it must. */
  absorb(done: TurnsResult, stepUsage?: TokenUsage): AgentRunOutcome | undefined {
    this.nextId = done.nextId;
    this.turnIndex = done.turnIndex;
    this.toolCalls += done.toolCalls;
    addUsage(this.usage, done.usage);
    if (stepUsage) addUsage(stepUsage, done.usage);
    this.replies.push(...done.replies);
    if (done.lastText) this.lastText = done.lastText;
    return done.end;
  }

  /** Counts a model call made outside the turns (a plan, a reflection, a structured output). */
  countCall(usage: TokenUsage, turns = 0): void {
    addUsage(this.usage, usage);
    this.turnIndex += turns;
  }

  /** Counts what a step said outside the turns, and queues it for the stream. */
  say(messageId: string, text: string): void {
    this.queue({ type: "text-delta", messageId, delta: text });
    this.replies.push(text);
  }

  /** Ends the run: the queued events and its last one go out, and the stream closes. */
  async finish(outcome: AgentRunOutcome, fallbackCode: string): Promise<AgentRunOutcome> {
    const usage = { ...this.usage };
    const events = [...this.queued, lastEvent(outcome, usage, fallbackCode)];
    this.queued = [];
    this.nextId = await emitEvents(this.runId, this.nextId, events, true);
    return {
      ...outcome,
      usage,
      toolCalls: this.toolCalls,
      reply: this.replies.join("\n\n").slice(0, MAX_REPLY_CHARS),
    };
  }
}
