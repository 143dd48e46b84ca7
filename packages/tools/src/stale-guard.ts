import { isWriteTool, type ToolOutput } from "@coauthor/types/tools";
import type { LexicalEditor } from "lexical";
import { toolFailure } from "./agent-edit.ts";
import { $forEachAddressable, $getBlockId } from "./block-id.ts";
import { $findBlockById } from "./block-index.ts";
import { runEditorTool } from "./editor-tools.ts";

// In a shared document people keep typing while the agent works. The model decides an edit from
// what it read; if someone has changed (or deleted) that block since, the edit would overwrite
// their words. The guard remembers the text of every block as the model last saw it (after each
// read, and after its own writes) and refuses a write to a block whose text has changed since,
// with "stale-target": the model reads again and decides again.

/** The blocks a write tool call would change in place (inserts change none). */
function targetsOf(editor: LexicalEditor, toolName: string, input: unknown): string[] {
  if (typeof input !== "object" || input === null) return [];
  const fields = input as { blockId?: unknown; blockIds?: unknown; search?: unknown };
  if (Array.isArray(fields.blockIds))
    return fields.blockIds.filter((id): id is string => typeof id === "string");
  if (typeof fields.blockId === "string") return [fields.blockId];
  // A replacement across the whole document changes every block holding the text.
  if (toolName === "replaceText" && typeof fields.search === "string" && fields.search) {
    const search = fields.search;
    return editor.read(() => {
      const ids: string[] = [];
      $forEachAddressable((node) => {
        const id = $getBlockId(node);
        if (id !== null && node.getTextContent().includes(search)) ids.push(id);
      });
      return ids;
    });
  }
  return [];
}

function resultBlockIds(result: unknown): string[] {
  if (typeof result !== "object" || result === null || !("blockIds" in result)) return [];
  const { blockIds } = result as { blockIds: unknown };
  return Array.isArray(blockIds) ? blockIds.filter((id): id is string => typeof id === "string") : [];
}

/** What executes a tool call once the guard let it through (`runEditorTool`, or it as a suggestion). */
export type ToolRunner = (editor: LexicalEditor, toolName: string, input: unknown) => Promise<ToolOutput>;

/** A write the guard let through names the blocks it targets (noted again once it ran); or the refusal. */
export type GuardCheck = { refused: ToolOutput } | { targets: string[] };

/**
 * What the model of one run has seen, block by block, and the check a write must pass: kept apart
 * from any editor, so an executor that binds a fresh copy of the document for each call (the
 * server's) guards a run's calls as a tab's long-lived editor does.
 */
export interface StaleGuardMemory {
  /** Checks a call before it runs in `editor`: a write to a block changed since the model read it is refused. */
  check(editor: LexicalEditor, toolName: string, input: unknown): GuardCheck;
  /** Remembers what a call that ran in `editor` showed the model (a read) or left (a write's targets and result). */
  note(editor: LexicalEditor, toolName: string, targets: string[], result: unknown): void;
}

/** An empty memory (nothing is refused before a read). */
export function createStaleGuardMemory(): StaleGuardMemory {
  const seen = new Map<string, string>();
  const textOf = (editor: LexicalEditor, id: string) =>
    editor.read(() => $findBlockById(id)?.getTextContent() ?? null);
  return {
    check(editor, toolName, input) {
      const targets = isWriteTool(toolName) ? targetsOf(editor, toolName, input) : [];
      const changed = targets.filter((id) => seen.has(id) && textOf(editor, id) !== seen.get(id));
      if (changed.length === 0) return { targets };
      const gone = changed.filter((id) => textOf(editor, id) === null);
      return {
        refused: toolFailure(
          "stale-target",
          `someone ${gone.length === changed.length ? "deleted" : "changed"} ${changed.map((id) => `"${id}"`).join(", ")} since you read ${changed.length === 1 ? "it" : "them"}; read again before editing`,
        ),
      };
    },
    note(editor, toolName, targets, result) {
      const ok = typeof result === "object" && result !== null && "ok" in result && result.ok === true;
      if (!ok) return;
      if (isWriteTool(toolName)) {
        for (const id of [...targets, ...resultBlockIds(result)]) {
          const text = textOf(editor, id);
          if (text === null) seen.delete(id);
          else seen.set(id, text);
        }
        return;
      }
      editor.read(() =>
        $forEachAddressable((node) => {
          const id = $getBlockId(node);
          if (id !== null) seen.set(id, node.getTextContent());
        }),
      );
    },
  };
}

/** Runs a run's tool calls on `editor`, refusing writes to blocks changed since the model read them. */
export interface StaleGuard {
  run(toolName: string, input: unknown, execute?: ToolRunner): Promise<unknown>;
}

/** A guard for one agent run (what the model has seen starts empty: nothing is refused before a read). */
export function createStaleGuard(editor: LexicalEditor): StaleGuard {
  const memory = createStaleGuardMemory();
  return {
    async run(toolName, input, execute = runEditorTool) {
      const checked = memory.check(editor, toolName, input);
      if ("refused" in checked) return checked.refused;
      const result = await execute(editor, toolName, input);
      memory.note(editor, toolName, checked.targets, result);
      return result;
    },
  };
}
