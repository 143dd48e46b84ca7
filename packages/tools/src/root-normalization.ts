import type { LexicalEditor } from "lexical";

/**
 * Lexical treats the root as intentionally dirty in every update and runs its transforms last;
 * the built-in one (ElementNode's `$transform`) walks all of the root's children to wrap stray
 * inline nodes in paragraphs, which is O(blocks) per update (~1 ms at 10,000 blocks, the largest
 * per-update cost after the node map). Stray inline nodes only arrive through hydrated external
 * input: Lexical's own mutation methods refuse to put them under the root. So once a headless
 * document editor has loaded its content (normalized by this same transform), the walk is dropped.
 * Table cells, the other shadow roots, keep it.
 */

/** The transforms `editor` registered for the root from node classes, before any plugin's. */
export function builtInRootTransforms(editor: LexicalEditor): readonly unknown[] {
  return [...(editor._nodes.get("root")?.transforms ?? [])];
}

/** Removes the given built-in root transforms (from `builtInRootTransforms`) from `editor`. */
export function dropRootNormalization(editor: LexicalEditor, builtIn: readonly unknown[]): void {
  const transforms = editor._nodes.get("root")?.transforms;
  if (transforms === undefined) return;
  for (const transform of transforms) if (builtIn.includes(transform)) transforms.delete(transform);
}
