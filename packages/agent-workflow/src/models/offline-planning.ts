// The offline model's planning: the plans it makes for multi-part commands, its reflections
// and its turns within a plan step. No I/O, deterministic.

import type { ScriptedTurn, SeenToolResult } from "./offline-reading.ts";
import { nextOfflineTurn } from "./offline-script.ts";

/** A plan as the offline planner answers it (the JSON shape the workflow parses). */
export interface OfflinePlan {
  goal: string;
  steps: { description: string; tools: string[]; successCriteria?: string; dependsOn?: number[] }[];
}

/**
 * The offline planner: multi-part commands get a plan, everything else none
 * (the same decision a real model makes from the request).
 */
export function offlinePlan(prompt: string): OfflinePlan {
  if (/^\s*summari[sz]e\b/i.test(prompt)) {
    return {
      goal: "Summarize the document at its end",
      steps: [
        {
          description: "Read the document",
          tools: ["readDocument"],
          successCriteria: "every page has been read",
        },
        {
          description: "Write the summary at the end",
          tools: ["insertBlocks"],
          successCriteria: "a Summary heading with one sentence per paragraph ends the document",
          dependsOn: [1],
        },
      ],
    };
  }
  if (/^\s*delete\s+paragraphs\s+containing\s+"/i.test(prompt)) {
    return {
      goal: "Delete the matching paragraphs",
      steps: [
        {
          description: "Find the paragraphs",
          tools: ["readDocument"],
          successCriteria: "every page has been read",
        },
        {
          description: "Delete them",
          tools: ["deleteBlocks"],
          successCriteria: "no paragraph contains the text",
          dependsOn: [1],
        },
      ],
    };
  }
  return { goal: "", steps: [] };
}

/** The offline reflection: go on while the script has another tool call, else done. */
export function offlineReflection(prompt: string, seen: SeenToolResult[]): { decision: "continue" | "done" } {
  return { decision: nextOfflineTurn(prompt, seen).toolCall ? "continue" : "done" };
}

/**
 * The next turn within a plan step that expects `stepTools`: a call of
 * another tool belongs to a later step, so this step ends here instead.
 */
export function nextOfflineStepTurn(
  prompt: string,
  seen: SeenToolResult[],
  step: { description: string; tools: string[] } | undefined,
): ScriptedTurn {
  const turn = nextOfflineTurn(prompt, seen);
  if (!step || !turn.toolCall || step.tools.includes(turn.toolCall.toolName)) return turn;
  return { text: `Finished: ${step.description.toLowerCase()}.` };
}
