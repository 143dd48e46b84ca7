"use client";

import type { RunEdits } from "@coauthor/types";
import { textChanges } from "../editor/word-diff";
import { type DiffBlock, runDiff } from "./run-diff";
import { WordChanges } from "./word-changes";

const LABELS: Record<DiffBlock["change"], string> = {
  added: "Added",
  removed: "Removed",
  changed: "Changed",
  moved: "Moved",
};

const TYPE_NAMES: [RegExp, string][] = [
  [/^heading-(\d)$/, "heading $1"],
  [/^(bullet|number|check)-list$/, "$1 list"],
  [/^code$/, "code block"],
  [/^rule$/, "divider"],
];
/** A block type in words ("heading 2", "bullet list"). */
const typeName = (type: string) =>
  TYPE_NAMES.reduce(
    (name, [pattern, words]) => (pattern.test(name) ? name.replace(pattern, words) : name),
    type,
  );

function BlockChange({ block }: { block: DiffBlock }) {
  switch (block.change) {
    case "added":
      return <ins>{block.after.text || "(empty)"}</ins>;
    case "removed":
      return <del>{block.before.text || "(empty)"}</del>;
    case "moved":
      return <span>{block.after.text}</span>;
    case "changed":
      return <WordChanges parts={textChanges(block.before.text, block.after.text)} />;
  }
}

/** What a run changed in the document, rendered: blocks added, removed, changed (word by word) and moved. */
export function RunDiffView({ edits }: { edits: RunEdits | null }) {
  const blocks = edits === null ? [] : runDiff(edits);
  if (blocks.length === 0)
    return <p className="muted run-diff-empty">This run did not change the document.</p>;
  return (
    <ol className="run-diff" data-testid="run-diff" aria-label="Changes to the document">
      {blocks.map((block) => {
        const type = "after" in block ? block.after.type : block.before.type;
        const retyped = block.change === "changed" && block.before.type !== block.after.type;
        return (
          <li
            key={block.id}
            className={`run-diff-block run-diff-${block.change}`}
            data-testid="run-diff-block"
            data-change={block.change}
          >
            <span className="run-diff-label">
              {LABELS[block.change]}{" "}
              {retyped ? `${typeName(block.before.type)} → ${typeName(type)}` : typeName(type)}
            </span>
            <span className="run-diff-text" data-testid="run-diff-text">
              <BlockChange block={block} />
            </span>
          </li>
        );
      })}
    </ol>
  );
}
