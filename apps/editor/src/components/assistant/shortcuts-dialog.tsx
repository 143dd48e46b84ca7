"use client";

import type { RefObject } from "react";
import { CONTEXT_SHORTCUTS, PANEL_SHORTCUTS } from "./panel-shortcuts";

/**
 * The keyboard shortcuts, in a native modal dialog: `dialogRef.current.showModal()` opens it; Esc
 * or Close closes it, and the browser puts focus back where it was.
 */
export function ShortcutsDialog({ dialogRef }: { dialogRef: RefObject<HTMLDialogElement | null> }) {
  const rows = [...PANEL_SHORTCUTS, ...CONTEXT_SHORTCUTS];
  return (
    <dialog
      ref={dialogRef}
      className="shortcuts-dialog"
      aria-labelledby="shortcuts-title"
      data-testid="shortcuts-dialog"
    >
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <table className="shortcuts-table">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.keys}>
              <td>
                <kbd>{row.keys}</kbd>
              </td>
              <td>{row.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit" className="button">
          Close
        </button>
      </form>
    </dialog>
  );
}
