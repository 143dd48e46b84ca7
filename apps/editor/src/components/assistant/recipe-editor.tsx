"use client";

import type { PipelineIssue, RecipeInfo } from "@coauthor/types";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTRPC } from "@/trpc/react";

const NEW_RECIPE = `version: 1
name: My recipe
description: A writer drafts, a critic checks; one more round if needed.
agents:
  - id: writer
    instructions: Do what the writer asked.
    tools: write
  - id: critic
    instructions: Check the result against the writer's request.
    tools: read
    output:
      type: object
      properties:
        approved: { type: boolean }
        notes: { type: string }
      required: [approved, notes]
steps:
  - loop:
      - agent: writer
        inputs: [critic]
      - agent: critic
    until: steps.critic.approved
    maxIterations: 2
`;

/** The character offset where `line` (1-based) starts in `text`. */
function offsetOfLine(text: string, line: number): number {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf("\n", offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return offset;
}

/**
 * Writes or changes a recipe (YAML or JSON). A definition with mistakes is not saved: each one is
 * listed at its line and column, and choosing it puts the cursor there.
 */
export function RecipeEditor({
  documentId,
  recipe,
  onClose,
  onSaved,
}: {
  documentId: string;
  recipe: RecipeInfo | null;
  onClose: () => void;
  onSaved: (recipe: RecipeInfo) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [definition, setDefinition] = useState(recipe?.definition ?? NEW_RECIPE);
  const [shared, setShared] = useState(recipe?.shared ?? false);
  const [issues, setIssues] = useState<PipelineIssue[]>([]);
  const text = useRef<HTMLTextAreaElement>(null);
  const save = useMutation(
    trpc.recipes.save.mutationOptions({
      onSuccess: async (answer) => {
        if (!answer.ok) {
          setIssues("issues" in answer ? answer.issues : []);
          return;
        }
        setIssues([]);
        await queryClient.invalidateQueries(trpc.recipes.list.queryFilter({ documentId }));
        onSaved(answer.recipe);
      },
    }),
  );
  const goTo = (issue: PipelineIssue) => {
    const area = text.current;
    if (!area) return;
    const at = offsetOfLine(definition, issue.line) + issue.column - 1;
    area.focus();
    area.setSelectionRange(at, at);
  };
  return (
    <section className="recipe-editor" data-testid="recipe-editor" aria-label="Recipe editor">
      <label className="recipe-editor-label" htmlFor="recipe-definition">
        Recipe (YAML or JSON, format version 1)
      </label>
      <textarea
        id="recipe-definition"
        ref={text}
        className="recipe-definition"
        data-testid="recipe-definition"
        spellCheck={false}
        rows={16}
        value={definition}
        onChange={(event) => setDefinition(event.target.value)}
      />
      {issues.length > 0 ? (
        <ul className="recipe-issues" data-testid="recipe-issues" aria-label="Mistakes in the recipe">
          {issues.map((issue) => (
            <li key={`${issue.line}:${issue.column}:${issue.message}`}>
              <button
                type="button"
                className="link-button"
                data-testid="recipe-issue"
                onClick={() => goTo(issue)}
              >
                Line {issue.line}, column {issue.column}
                {issue.path ? ` (${issue.path})` : ""}: {issue.message}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {save.error ? (
        <p className="form-error" role="alert">
          {save.error.message}
        </p>
      ) : null}
      <label className="recipe-shared">
        <input
          type="checkbox"
          data-testid="recipe-shared"
          checked={shared}
          onChange={(event) => setShared(event.target.checked)}
        />
        Share with everyone who can open this document
      </label>
      <div className="assistant-actions">
        <button type="button" className="button ghost" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button primary"
          data-testid="recipe-save"
          disabled={save.isPending}
          onClick={() => save.mutate({ documentId, id: recipe?.id, definition, shared })}
        >
          Save recipe
        </button>
      </div>
    </section>
  );
}
