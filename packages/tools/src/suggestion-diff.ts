import type { SerializedLexicalNode } from "lexical";
import { longestIncreasingRun } from "./longest-run.ts";

// Comparing a document's top-level blocks before and after a change (serialized): which blocks
// are the same and stay where they are. Used to land a tool call as suggestions (suggestions.ts)
// and by a writer's Suggesting mode (suggesting-mode.ts).

/** The block id a serialized block carries (NodeState "blockId"), or null. */
export function serializedBlockId(node: SerializedLexicalNode): string | null {
  const state = (node as { $?: { blockId?: unknown } }).$;
  return typeof state?.blockId === "string" ? state.blockId : null;
}

/** The block without its suggestion and provenance state: what its content is, for comparing. */
function contentKey(node: SerializedLexicalNode): string {
  const { $: state, ...rest } = node as SerializedLexicalNode & { $?: Record<string, unknown> };
  const { suggestion: _suggestion, writtenBy: _writtenBy, ...kept } = state ?? {};
  return JSON.stringify({ ...rest, $: kept });
}

/** True when two serialized blocks differ at most in their suggestion marks and named authors. */
export function sameBlockContent(a: SerializedLexicalNode, b: SerializedLexicalNode): boolean {
  return contentKey(a) === contentKey(b);
}

/**
 * Ids present and unchanged in both lists, in an order both share, as many as possible (the
 * longest increasing run of their positions before, read in their order after): those blocks stay
 * where they are; every other one is proposed as removed, inserted, replaced or moved.
 */
export function stableIds(before: SerializedLexicalNode[], after: SerializedLexicalNode[]): Set<string> {
  const positionBefore = new Map<string, number>();
  const contentBefore = new Map<string, string>();
  before.forEach((node, index) => {
    const id = serializedBlockId(node);
    if (id === null) return;
    positionBefore.set(id, index);
    contentBefore.set(id, contentKey(node));
  });
  const candidates: Array<{ id: string; position: number }> = [];
  for (const node of after) {
    const id = serializedBlockId(node);
    const position = id === null ? undefined : positionBefore.get(id);
    if (id !== null && position !== undefined && contentBefore.get(id) === contentKey(node)) {
      candidates.push({ id, position });
    }
  }
  const kept = longestIncreasingRun(candidates.map(({ position }) => position));
  return new Set(candidates.filter((_, index) => kept.has(index)).map(({ id }) => id));
}
