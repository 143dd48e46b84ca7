/** An action of the assistant panel that has a shortcut. */
export type PanelAction =
  | "focus-prompt"
  | "toggle-mode"
  | "choose-model"
  | "choose-recipe"
  | "toggle-history"
  | "keep"
  | "undo-run"
  | "continue"
  | "next-suggestion"
  | "previous-suggestion"
  | "toggle-panel";

/**
 * Alt+Shift+letter works from anywhere on the document page, the editor included: no editor
 * or browser command uses it, and it types nothing once handled. Matched on the physical key,
 * since Alt (Option on a Mac) changes the character a letter key produces.
 */
export const PANEL_SHORTCUTS: { action: PanelAction; code: string; keys: string; description: string }[] = [
  {
    action: "focus-prompt",
    code: "KeyA",
    keys: "Alt+Shift+A",
    description: "Go to the prompt box (opens the assistant)",
  },
  { action: "toggle-mode", code: "KeyM", keys: "Alt+Shift+M", description: "Switch between Agent and Chat" },
  { action: "choose-model", code: "KeyO", keys: "Alt+Shift+O", description: "Go to the model picker" },
  {
    action: "toggle-history",
    code: "KeyH",
    keys: "Alt+Shift+H",
    description: "Show History / the conversation",
  },
  { action: "keep", code: "KeyK", keys: "Alt+Shift+K", description: "Keep the last run's edits" },
  { action: "undo-run", code: "KeyU", keys: "Alt+Shift+U", description: "Undo the last run's edits" },
  { action: "continue", code: "KeyC", keys: "Alt+Shift+C", description: "Continue a run that stopped early" },
  { action: "toggle-panel", code: "KeyP", keys: "Alt+Shift+P", description: "Hide or show the assistant" },
  {
    action: "next-suggestion",
    code: "Period",
    keys: "Alt+Shift+.",
    description: "Go to the next pending suggestion in the document",
  },
  {
    action: "previous-suggestion",
    code: "Comma",
    keys: "Alt+Shift+,",
    description: "Go to the previous pending suggestion in the document",
  },
];

/** Keys that act where focus is; listed beside the panel's shortcuts. */
export const CONTEXT_SHORTCUTS: { keys: string; description: string }[] = [
  { keys: "Enter", description: "Send the prompt (in the prompt box)" },
  { keys: "Shift+Enter", description: "New line in the prompt box" },
  { keys: "Esc", description: "Stop the run, while focus is in the assistant" },
  { keys: "?", description: "Show these shortcuts, when focus is not in a text field" },
  {
    keys: "Tab / Shift+Tab",
    description: "Next / previous control; in the document's lists, code and tables: indent / outdent",
  },
  { keys: "Esc, then Tab", description: "Leave the document from a list, code block or table" },
  { keys: "Ctrl+K / ⌘K", description: "Add or edit the link on the selected text (in the document)" },
];

/** The panel action `event` is the shortcut of, if any. */
export function panelActionOf(event: KeyboardEvent): PanelAction | null {
  if (!event.altKey || !event.shiftKey || event.ctrlKey || event.metaKey) return null;
  return PANEL_SHORTCUTS.find((shortcut) => shortcut.code === event.code)?.action ?? null;
}

/** Whether `target` takes typed text (where `?` is a character, not a shortcut). */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  ) {
    return true;
  }
  return (
    target instanceof HTMLInputElement && !["button", "checkbox", "radio", "submit"].includes(target.type)
  );
}
