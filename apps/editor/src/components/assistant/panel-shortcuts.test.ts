import { describe, expect, it } from "vitest";
import { PANEL_SHORTCUTS, panelActionOf } from "./panel-shortcuts";

/** A keydown with the given physical key and modifiers (only what `panelActionOf` reads). */
function keydown(
  code: string,
  modifiers: Partial<Record<"altKey" | "shiftKey" | "ctrlKey" | "metaKey", boolean>>,
) {
  return {
    code,
    altKey: false,
    shiftKey: false,
    ctrlKey: false,
    metaKey: false,
    ...modifiers,
  } as KeyboardEvent;
}

describe("the assistant panel's shortcuts", () => {
  it("gives every action its own key", () => {
    const codes = PANEL_SHORTCUTS.map((shortcut) => shortcut.code);
    const actions = PANEL_SHORTCUTS.map((shortcut) => shortcut.action);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(actions).size).toBe(actions.length);
  });

  it("matches Alt+Shift and the physical key, whatever character the layout makes of it", () => {
    expect(panelActionOf(keydown("KeyA", { altKey: true, shiftKey: true }))).toBe("focus-prompt");
    expect(panelActionOf(keydown("KeyH", { altKey: true, shiftKey: true }))).toBe("toggle-history");
  });

  it("ignores the key without both modifiers or with Ctrl or Meta (editor and browser commands)", () => {
    expect(panelActionOf(keydown("KeyA", { altKey: true }))).toBeNull();
    expect(panelActionOf(keydown("KeyA", { shiftKey: true }))).toBeNull();
    expect(panelActionOf(keydown("KeyA", { altKey: true, shiftKey: true, ctrlKey: true }))).toBeNull();
    expect(panelActionOf(keydown("KeyA", { altKey: true, shiftKey: true, metaKey: true }))).toBeNull();
    expect(panelActionOf(keydown("KeyZ", { altKey: true, shiftKey: true }))).toBeNull();
  });
});
