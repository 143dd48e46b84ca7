"use client";

import type { RecipeInfo } from "@coauthor/types";
import { useQuery } from "@tanstack/react-query";
import type { RefObject } from "react";
import { useTRPC } from "@/trpc/react";

/** Select for how an agent run works: on its own (plan → execute → reflect), or by a recipe. */
export function RecipePicker({
  documentId,
  value,
  onChange,
  onEdit,
  selectRef,
}: {
  documentId: string;
  value: string;
  onChange: (recipeId: string) => void;
  /** Opens the recipe editor on a recipe (null: a new one). */
  onEdit: (recipe: RecipeInfo | null) => void;
  /** Lets the panel's shortcut put focus on the picker. */
  selectRef?: RefObject<HTMLSelectElement | null>;
}) {
  const trpc = useTRPC();
  const recipes = useQuery(trpc.recipes.list.queryOptions({ documentId }));
  const selected = recipes.data?.find((recipe) => recipe.id === value);
  return (
    <div className="recipe-picker">
      <select
        ref={selectRef}
        data-testid="assistant-recipe"
        aria-keyshortcuts="Alt+Shift+R"
        aria-label="Recipe"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">Agent plans on its own</option>
        {recipes.data?.map((recipe) => (
          <option key={recipe.id} value={recipe.id} title={recipe.description}>
            {recipe.name}
            {recipe.builtIn ? "" : recipe.shared ? " (shared)" : " (yours)"}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button ghost"
        data-testid="assistant-recipe-edit"
        onClick={() => onEdit(selected?.editable ? selected : null)}
      >
        {selected?.editable ? "Edit recipe" : "New recipe"}
      </button>
    </div>
  );
}
