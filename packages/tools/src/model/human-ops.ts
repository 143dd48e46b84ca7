import {
  $createRangeSelection,
  $isElementNode,
  $setSelection,
  type LexicalEditor,
  type LexicalNode,
  type RangeSelection,
} from "lexical";
import { $getBlockId } from "../block-id.ts";
import { $parseMarkdownBlocks, looksLikeMarkdown } from "../markdown.ts";
import { $forEachTextUnit, $unitText } from "../tools/text-units.ts";
import type { HumanOp } from "./operations.ts";
import { TOKEN_PATTERN } from "./tokens.ts";

// What a person does in one copy, done the way the browser's editor does it: a selection in one
// discrete update, then the same RangeSelection call the keyboard, toolbar or paste handler makes.
// Ops name their places by numbers taken modulo what the copy holds (text unit, character offset),
// so any op list can be replayed on any document and still does something meaningful.

/** A text unit (top-level block or list item) where people type, with its id and plain text. */
interface Unit {
  node: LexicalNode;
  id: string;
  text: string;
}

function $units(): Unit[] {
  const units: Unit[] = [];
  $forEachTextUnit((node, id) => {
    units.push({ node, id, text: $unitText(node).text });
    return true;
  });
  return units;
}

/**
 * `pick` as an offset into `text`, moved to the end of a marker word it would fall inside: a caret
 * never splits a marker, so only ops that may remove text can break one.
 */
function offsetIn(text: string, pick: number): number {
  let at = pick % (text.length + 1);
  for (const match of text.matchAll(TOKEN_PATTERN)) {
    const end = match.index + match[0].length;
    if (at > match.index && at < end) at = end;
  }
  return at;
}

/** Places `point` at character `offset` of `unit` (in the text node holding it, or at the unit's start when it has none). */
function $placePoint(point: RangeSelection["anchor"], unit: LexicalNode, offset: number): void {
  const { segments } = $unitText(unit);
  const segment = segments.find((candidate) => offset <= candidate.end) ?? segments.at(-1);
  if (segment === undefined) {
    point.set(unit.getKey(), 0, "element");
    return;
  }
  point.set(
    segment.node.getKey(),
    Math.min(Math.max(offset - segment.start, 0), segment.end - segment.start),
    "text",
  );
}

function $select(anchor: [LexicalNode, number], focus: [LexicalNode, number]): RangeSelection {
  const selection = $createRangeSelection();
  $placePoint(selection.anchor, anchor[0], anchor[1]);
  $placePoint(selection.focus, focus[0], focus[1]);
  $setSelection(selection);
  return selection;
}

/** The ids of `node` and of every addressable block holding it (a list item's lists and items). */
function $idsWithAncestors(node: LexicalNode): string[] {
  const ids: string[] = [];
  for (let current: LexicalNode | null = node; current !== null; current = current.getParent()) {
    const id = $isElementNode(current) ? $getBlockId(current) : null;
    if (id !== null) ids.push(id);
  }
  return ids;
}

/** What a human op will change, known before it runs: the blocks its selection reaches. */
export interface HumanPlan {
  /** Ids of the blocks the op edits inside, with their ancestors. */
  touches: string[];
  /** Runs the op (inside the update the plan was made in). */
  $run: () => void;
}

/**
 * Known Lexical 0.52 bug, left out of the model's runs: `RangeSelection.removeText` from the very
 * start of a block to a point in a later block, inside a text node that has a sibling after it and
 * past that node's middle, throws "$getTextNodeOffset: invalid offset" (it trims the focus node,
 * then reads the old focus offset against it). Minimal: "Para one." / "abcdefghij klmnop **x**",
 * select from the start to offset 12 of the second paragraph, removeText. True for such a deletion.
 */
function $hitsRemoveTextBug(anchor: Unit, at: number, focus: Unit, to: number): boolean {
  if (at !== 0 || focus === anchor) return false;
  const segments = $unitText(focus.node).segments;
  const segment = segments.find((candidate) => to <= candidate.end);
  if (segment === undefined || segment.node.getNextSibling() === null) return false;
  const offset = to - segment.start;
  return 2 * offset > segment.end - segment.start;
}

/** Markdown a person pastes; `{T}` is replaced by the op's marker word. Each reads as Markdown to the paste handler. */
export const PASTE_TEMPLATES = [
  "## Pasted heading {T}",
  "- pasted item {T}\n- another pasted item",
  "Some **pasted {T}** words",
  "> pasted quote {T}",
  "Pasted paragraph {T}\n\n1. pasted step",
] as const;

/**
 * Plans `op` inside an update of the copy's editor, or null when the copy has no place for it (no
 * text unit; nothing before the first block to merge with), or "known-issue" when it would hit a
 * known bug. `text` is the marker word a typing or paste op writes.
 */
export function $planHumanEdit(op: HumanOp, text: string): HumanPlan | null | "known-issue" {
  const units = $units();
  const unit = units[op.unit % Math.max(units.length, 1)];
  if (unit === undefined) return null;
  const at = "at" in op ? offsetIn(unit.text, op.at) : 0;
  switch (op.kind) {
    case "type":
      return {
        touches: $idsWithAncestors(unit.node),
        $run: () => $select([unit.node, at], [unit.node, at]).insertText(` ${text} `),
      };
    case "enter":
      return {
        touches: $idsWithAncestors(unit.node),
        $run: () => $select([unit.node, at], [unit.node, at]).insertParagraph(),
      };
    case "paste": {
      const template = PASTE_TEMPLATES[op.template % PASTE_TEMPLATES.length] ?? PASTE_TEMPLATES[0];
      const markdown = template.replace("{T}", text);
      // The paste handler only reads a paste as Markdown when it looks like Markdown.
      if (!looksLikeMarkdown(markdown)) throw new Error(`paste template is not Markdown: ${markdown}`);
      return {
        touches: $idsWithAncestors(unit.node),
        $run: () => $select([unit.node, at], [unit.node, at]).insertNodes($parseMarkdownBlocks(markdown)),
      };
    }
    case "merge": {
      // Backspace at the start of a unit joins it to what comes before.
      const index = units.indexOf(unit);
      const previous = units[index - 1];
      if (previous === undefined) return null;
      return {
        touches: [...$idsWithAncestors(previous.node), ...$idsWithAncestors(unit.node)],
        $run: () => $select([unit.node, 0], [unit.node, 0]).deleteCharacter(true),
      };
    }
    case "delete": {
      // From a point in this unit to a point up to two units further on (Backspace over a selection).
      const index = units.indexOf(unit);
      const last = units[Math.min(index + (op.span % 3), units.length - 1)] ?? unit;
      const reached = units.slice(index, units.indexOf(last) + 1);
      const end = last === unit ? unit.text.length : last.text.length;
      const to = last === unit ? at + (op.length % (end - at + 1)) : op.length % (end + 1);
      if ($hitsRemoveTextBug(unit, at, last, to)) return "known-issue";
      return {
        touches: reached.flatMap((each) => $idsWithAncestors(each.node)),
        $run: () => $select([unit.node, at], [last.node, to]).removeText(),
      };
    }
    case "bold": {
      // The toolbar's Bold over a stretch of one unit's text.
      if (unit.text.length === 0) return null;
      const start = op.at % unit.text.length;
      const end = start + 1 + (op.length % (unit.text.length - start));
      return {
        touches: $idsWithAncestors(unit.node),
        $run: () => $select([unit.node, start], [unit.node, end]).formatText("bold"),
      };
    }
  }
}

/**
 * Plans and runs `op` in one discrete update, as the editor commits a keystroke. Returns the blocks
 * it touched, or null when the copy had no place for it, or "known-issue" (nothing changed then).
 */
export function runHumanEdit(
  editor: LexicalEditor,
  op: HumanOp,
  text: string,
): string[] | null | "known-issue" {
  let outcome: string[] | null | "known-issue" = null;
  editor.update(
    () => {
      const plan = $planHumanEdit(op, text);
      if (plan === null || plan === "known-issue") {
        outcome = plan;
        return;
      }
      plan.$run();
      outcome = plan.touches;
    },
    { discrete: true },
  );
  return outcome;
}
