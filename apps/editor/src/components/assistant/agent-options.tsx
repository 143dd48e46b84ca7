"use client";

import type { EditMode, RecipeInfo } from "@coauthor/types";
import { type RefObject, useState } from "react";
import { type ModeOption, ModeSwitch } from "./mode-switch";
import { RecipeEditor } from "./recipe-editor";
import { RecipePicker } from "./recipe-picker";

const EDIT_MODES: ModeOption<EditMode>[] = [
  { mode: "suggest", label: "Suggest", hint: "The agent's edits arrive as suggestions to accept or reject" },
  { mode: "direct", label: "Edit directly", hint: "The agent's edits land in the document at once" },
];

/**
 * What Agent mode adds to the panel's controls: how the agent edits (Suggest / Edit directly) and
 * which recipe runs, with the recipe editor for writing or changing one.
 */
export function AgentOptions({
  documentId,
  editMode,
  onEditModeChange,
  recipeId,
  onRecipeChange,
  recipePicker,
}: {
  documentId: string;
  editMode: EditMode;
  onEditModeChange: (mode: EditMode) => void;
  recipeId: string;
  onRecipeChange: (recipeId: string) => void;
  recipePicker: RefObject<HTMLSelectElement | null>;
}) {
  /** The recipe being written or changed (null: a new one); undefined: the editor is closed. */
  const [editing, setEditing] = useState<RecipeInfo | null | undefined>(undefined);
  return (
    <>
      <ModeSwitch
        label="How the agent edits"
        className="mode-switch edit-mode-switch"
        testIdPrefix="edit-mode-"
        options={EDIT_MODES}
        value={editMode}
        onChange={onEditModeChange}
      />
      <RecipePicker
        documentId={documentId}
        value={recipeId}
        onChange={onRecipeChange}
        onEdit={setEditing}
        selectRef={recipePicker}
      />
      {editing !== undefined ? (
        <RecipeEditor
          key={editing?.id ?? "new"}
          documentId={documentId}
          recipe={editing}
          onClose={() => setEditing(undefined)}
          onSaved={(saved) => {
            setEditing(undefined);
            onRecipeChange(saved.id);
          }}
        />
      ) : null}
    </>
  );
}
