"use client";

import type { RunEvent } from "@coauthor/types";
import { useCallback, useState } from "react";
import { type PipelineNodeView, type PipelineView, pipelineReducer } from "./pipeline-state";

const MARKS = { pending: "○", running: "◐", retrying: "↻", done: "✓", failed: "✕", skipped: "–" } as const;

/** The pipeline tree of the run shown in the panel; feed it every run event. */
export function usePipelineTree() {
  const [pipeline, setPipeline] = useState<PipelineView | null>(null);
  const onRunEvent = useCallback(
    (event: RunEvent) => setPipeline((view) => pipelineReducer(view, event)),
    [],
  );
  const clear = useCallback(() => setPipeline(null), []);
  /** The writer stopped the run here: what was going on ends (the panel stops reading the stream). */
  const stopped = useCallback(
    () =>
      setPipeline((view) =>
        view
          ? {
              ...view,
              nodes: view.nodes.map((node) =>
                node.status === "running" || node.status === "retrying"
                  ? { ...node, status: "failed" }
                  : node,
              ),
            }
          : view,
      ),
    [],
  );
  return { pipeline, onRunEvent, clear, stopped };
}

/** What a node says beside its name: its round, attempt, branch taken or output. */
function detail(node: PipelineNodeView): string {
  const parts: string[] = [];
  if (node.iteration) parts.push(`round ${node.iteration}`);
  if (node.attempt) parts.push(`attempt ${node.attempt}`);
  if (node.taken !== undefined) parts.push(node.taken >= 0 ? `case ${node.taken + 1}` : "else");
  if (node.output !== undefined && node.output !== null && typeof node.output === "object") {
    parts.push(
      Object.entries(node.output)
        .filter(([, value]) => typeof value !== "object")
        .map(([key, value]) => `${key}: ${String(value)}`)
        .join(", "),
    );
  }
  if (node.error) parts.push(node.error);
  return parts.filter(Boolean).join(" · ");
}

const label = (node: PipelineNodeView) =>
  node.kind === "agent"
    ? node.stepId && node.stepId !== node.agent
      ? `${node.stepId} (${node.agent})`
      : (node.agent ?? "")
    : `${node.kind}${node.stepId ? ` ${node.stepId}` : ""}`;

function Nodes({ nodes, parent }: { nodes: PipelineNodeView[]; parent: string | undefined }) {
  const children = nodes.filter((node) => node.parent === parent);
  if (children.length === 0) return null;
  return (
    <ol className="pipeline-nodes">
      {children.map((node) => (
        <li
          key={node.path}
          className={`pipeline-node pipeline-node-${node.status}`}
          data-testid="pipeline-node"
          data-path={node.path}
          data-status={node.status}
        >
          <span className="plan-step-mark" aria-hidden="true">
            {MARKS[node.status]}
          </span>
          <span className="pipeline-node-label">{label(node)}</span>
          <span className="pipeline-node-detail" data-testid="pipeline-node-detail">
            {detail(node)}
          </span>
          <span className="visually-hidden">({node.status})</span>
          <Nodes nodes={nodes} parent={node.path} />
        </li>
      ))}
    </ol>
  );
}

/** A pipeline run as a live tree of its steps (model text rendered as text, never HTML). */
export function PipelineTree({ pipeline }: { pipeline: PipelineView | null }) {
  if (!pipeline) return null;
  return (
    <section className="plan pipeline" data-testid="pipeline-tree" aria-label={`Pipeline: ${pipeline.name}`}>
      <header className="plan-header">
        <span className="plan-title">{pipeline.name}</span>
      </header>
      <Nodes nodes={pipeline.nodes} parent={undefined} />
    </section>
  );
}
