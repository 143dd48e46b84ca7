import type { PipelineNode, RunEvent } from "@coauthor/types";

/** A node of the pipeline tree as the panel shows it. */
export interface PipelineNodeView extends PipelineNode {
  status: "pending" | "running" | "done" | "failed" | "retrying" | "skipped";
  /** Loops: the round going on (or the last one). */
  iteration?: number;
  /** Retries: the attempt going on, the last error. */
  attempt?: number;
  error?: string;
  /** Branches: the case taken (-1: else). */
  taken?: number;
  /** Agent steps: the structured output, once done. */
  output?: unknown;
}

/** The pipeline of the run shown in the panel (null: the run is not a pipeline). */
export interface PipelineView {
  runId: string;
  name: string;
  nodes: PipelineNodeView[];
}

/**
 * Folds a run's events into its pipeline tree: `pipeline` draws it, `pipeline-step` moves a node
 * along (a loop's new round starts its body over). A new run's `run-start` clears it.
 */
export function pipelineReducer(view: PipelineView | null, event: RunEvent): PipelineView | null {
  if (event.type === "run-start") return null;
  if (event.type === "pipeline") {
    return {
      runId: event.runId,
      name: event.name,
      nodes: event.nodes.map((node) => ({ ...node, status: "pending" })),
    };
  }
  if (!view || view.runId !== event.runId) return view;
  if (event.type === "pipeline-step") {
    const newRound = event.iteration !== undefined && event.status === "running";
    return {
      ...view,
      nodes: view.nodes.map((node) => {
        if (node.path === event.path) {
          return {
            ...node,
            status: event.status,
            ...(event.iteration !== undefined ? { iteration: event.iteration } : {}),
            ...(event.attempt !== undefined ? { attempt: event.attempt } : {}),
            ...(event.taken !== undefined ? { taken: event.taken } : {}),
            error: event.error,
            ...(event.output !== undefined ? { output: event.output } : {}),
          };
        }
        // A loop's new round: its body's steps are to do again.
        if (newRound && node.path.startsWith(`${event.path}.`))
          return { ...node, status: "pending", error: undefined };
        return node;
      }),
    };
  }
  if (event.type === "finish" || event.type === "error") {
    return {
      ...view,
      nodes: view.nodes.map((node) =>
        node.status === "running" || node.status === "retrying" ? { ...node, status: "failed" } : node,
      ),
    };
  }
  return view;
}
