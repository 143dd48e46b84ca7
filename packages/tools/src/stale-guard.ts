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

/** Runs a run's tool calls on `editor`, refusing writes to blocks changed since the model read them. */
export interface StaleGuard {
  run(toolName: string, input: unknown, execute?: ToolRunner): Promise<unknown>;
}

/** A guard for one agent run (what the model has seen starts empty: nothing is refused before a read). */
export function createStaleGuard(editor: LexicalEditor): StaleGuard {
  const seen = new Map<string, string>();
  const textOf = (id: string) => editor.read(() => $findBlockById(id)?.getTextContent() ?? null);
  const remember = (ids: string[]) => {
    for (const id of ids) {
      const text = textOf(id);
      if (text === null) seen.delete(id);
      else seen.set(id, text);
    }
  };
  const rememberAll = () =>
    editor.read(() =>
      $forEachAddressable((node) => {
        const id = $getBlockId(node);
        if (id !== null) seen.set(id, node.getTextContent());
      }),
    );
  return {
    async run(toolName, input, execute = runEditorTool) {
      const write = isWriteTool(toolName);
      const targets = write ? targetsOf(editor, toolName, input) : [];
      const changed = targets.filter((id) => seen.has(id) && textOf(id) !== seen.get(id));
      if (changed.length > 0) {
        const gone = changed.filter((id) => textOf(id) === null);
        return toolFailure(
          "stale-target",
          `someone ${gone.length === changed.length ? "deleted" : "changed"} ${changed.map((id) => `"${id}"`).join(", ")} since you read ${changed.length === 1 ? "it" : "them"}; read again before editing`,
        );
      }
      const result = await execute(editor, toolName, input);
      const ok = typeof result === "object" && result !== null && "ok" in result && result.ok === true;
      if (ok && !write) rememberAll();
      if (ok && write) remember([...targets, ...resultBlockIds(result)]);
      return result;
    },
  };
}
