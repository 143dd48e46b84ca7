import type { FindTextInput, FindTextOutput } from "@coauthor/types/tools";
import { $isListNode } from "@lexical/list";
import type { LexicalEditor, LexicalNode } from "lexical";
import { toolFailure } from "../agent-edit.ts";
import { $getBlockId } from "../block-id.ts";
import { REGEX_LIMITS, unsafeRegexReason } from "./regex-safety.ts";
import { $forEachTextUnit, $unitsOf, $unitText } from "./text-units.ts";
import { $resolveBlock, isFailure } from "./tool-helpers.ts";

type Match = { blockId: string; start: number; end: number; text: string };

function compile(input: FindTextInput): RegExp | string {
  const flags = input.caseSensitive ? "gu" : "giu";
  if (!input.regex) return new RegExp(input.query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), flags);
  const reason = unsafeRegexReason(input.query);
  if (reason !== null) return reason;
  try {
    return new RegExp(input.query, flags);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Finds plain text or a (safety-checked) regex in one block or the whole document; returns block ids and offsets. */
export function findText(editor: LexicalEditor, input: FindTextInput): FindTextOutput {
  const pattern = compile(input);
  if (typeof pattern === "string") {
    return toolFailure(
      "unsafe-regex",
      `query: ${pattern}; simplify the pattern or search for plain text (regex: false)`,
    );
  }
  return editor.read((): FindTextOutput => {
    const matches: Match[] = [];
    let truncated = false;
    let scanned = 0;
    const started = performance.now();
    const search = (unit: LexicalNode, id: string): boolean => {
      if (matches.length >= input.maxResults) {
        truncated = true;
        return false;
      }
      if (scanned > REGEX_LIMITS.MAX_TOTAL_CHARS || performance.now() - started > REGEX_LIMITS.MAX_MILLIS) {
        truncated = true;
        return false;
      }
      let { text } = $unitText(unit);
      if (text.length > REGEX_LIMITS.MAX_UNIT_CHARS) {
        text = text.slice(0, REGEX_LIMITS.MAX_UNIT_CHARS);
        truncated = true;
      }
      scanned += text.length;
      pattern.lastIndex = 0;
      for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
        // An empty match would loop forever; step past it.
        if (found[0] === "") {
          pattern.lastIndex++;
          continue;
        }
        if (matches.length >= input.maxResults) {
          truncated = true;
          return false;
        }
        matches.push({ blockId: id, start: found.index, end: found.index + found[0].length, text: found[0] });
      }
      return true;
    };
    if (input.blockId === undefined) $forEachTextUnit(search);
    else {
      const node = $resolveBlock(input.blockId, "blockId");
      if (isFailure(node)) return node;
      const units = $isListNode(node) ? $unitsOf(node) : [node];
      for (const unit of units) if (!search(unit, $getBlockId(unit) ?? "")) break;
    }
    return { ok: true, matches, truncated };
  });
}
