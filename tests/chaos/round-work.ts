// The work of a chaos round while the faults go on: writers editing their paragraphs at their
// pace, agent participants asking for one marker after another.
import { type ChaosRun, driveRun } from "./agent-runs.ts";
import type { ObservedClient } from "./observed-client.ts";
import type { Participant } from "./participants.ts";
import type { Random } from "./random.ts";
import type { AgentPlan } from "./schedule.ts";
import { WRITER_EDIT_WEIGHTS, writerEdit } from "./writer-edits.ts";

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A writer at work until `stopAt`: one edit of its own paragraphs every `paceMs`. */
export async function write(
  participant: Participant,
  prefix: string,
  paceMs: number,
  stopAt: number,
  random: Random,
) {
  for (let typed = 0; Date.now() < stopAt; ) {
    const marker = `${prefix}${typed + 1}`;
    const kind = random.weighted(WRITER_EDIT_WEIGHTS);
    if (writerEdit(participant.editor, kind, prefix, marker, random) !== null) {
      typed++;
      participant.noteTyped(marker);
    }
    await pause(paceMs);
  }
}

/** An agent participant asking for one marker after another until `stopAt`. */
export async function askAgent(
  participant: Participant,
  clients: ObservedClient[],
  plan: AgentPlan,
  prefix: string,
  stopAt: number,
  runs: ChaosRun[],
) {
  await pause(plan.startMs);
  for (let n = 1; Date.now() < stopAt; n++) {
    const marker = `${prefix}${n}`;
    const prompt = plan.prompt === "append" ? `append "${marker}"` : `add a heading "${marker}"`;
    const run = await driveRun(participant, clients, prompt, marker, stopAt);
    runs.push(run);
    await pause(200);
  }
}
