import type { FormatTextInput, FormatTextOutput } from "@coauthor/types/tools";
import { $isCodeNode } from "@lexical/code";
import { $createLinkNode, $isLinkNode } from "@lexical/link";
import { $isListNode } from "@lexical/list";
import type { LexicalEditor, TextNode } from "lexical";
import { applyAgentEdit, toolFailure } from "../agent-edit.ts";
import { $unitText } from "./text-units.ts";
import { $resolveBlock, isFailure } from "./tool-helpers.ts";

type Range = { start: number; end: number };

function findRange(text: string, input: FormatTextInput): Range | string {
  if (input.text !== undefined) {
    let at = -1;
    for (let n = 0; n < input.occurrence; n++) {
      at = text.indexOf(input.text, at + 1);
      if (at === -1)
        return `text: "${input.text}" occurs fewer than ${input.occurrence} time(s) in the block`;
    }
    return { start: at, end: at + input.text.length };
  }
  if (input.start === undefined || input.end === undefined) return "give either text, or both start and end";
  if (input.start >= input.end || input.end > text.length) {
    return `start/end: need 0 <= start < end <= ${text.length} (the block's text length)`;
  }
  return { start: input.start, end: input.end };
}

/** Splits the text nodes of the unit so that exactly `range` is covered by whole nodes; returns them. */
function $isolate(segments: ReturnType<typeof $unitText>["segments"], range: Range): TextNode[] {
  const pieces: TextNode[] = [];
  for (const segment of segments) {
    const from = Math.max(range.start, segment.start) - segment.start;
    const to = Math.min(range.end, segment.end) - segment.start;
    if (from >= to) continue;
    const size = segment.end - segment.start;
    const offsets = [from, to].filter((offset) => offset > 0 && offset < size);
    const parts = offsets.length > 0 ? segment.node.splitText(...offsets) : [segment.node];
    const piece = parts[from > 0 ? 1 : 0];
    if (piece !== undefined) pieces.push(piece);
  }
  return pieces;
}

function $applyLink(pieces: TextNode[], url: string | null): void {
  for (const piece of pieces) {
    const parent = piece.getParent();
    if ($isLinkNode(parent)) {
      if (url === null) {
        for (const child of parent.getChildren()) parent.insertBefore(child);
        parent.remove();
      } else parent.setURL(url);
    } else if (url !== null) {
      // Consecutive pieces share one link.
      const previous = piece.getPreviousSibling();
      if ($isLinkNode(previous) && previous.getURL() === url) previous.append(piece);
      else {
        const link = $createLinkNode(url);
        piece.insertBefore(link);
        link.append(piece);
      }
    }
  }
}

/** Adds or removes bold/italic/underline/strikethrough/code and links on a range of one block's text. */
export function formatText(editor: LexicalEditor, input: FormatTextInput): FormatTextOutput {
  return applyAgentEdit(editor, (): FormatTextOutput => {
    if (input.add.length === 0 && input.remove.length === 0 && input.link === undefined) {
      return toolFailure("invalid-input", "add, remove or link: say which formatting to change");
    }
    const block = $resolveBlock(input.blockId, "blockId");
    if (isFailure(block)) return block;
    if ($isCodeNode(block) || $isListNode(block)) {
      return toolFailure(
        "wrong-block-type",
        $isListNode(block)
          ? "blockId: format text of one list item (use the item's id)"
          : "blockId: code blocks have no formatting",
      );
    }
    const unit = $unitText(block);
    const range = findRange(unit.text, input);
    if (typeof range === "string")
      return toolFailure(input.text === undefined ? "invalid-range" : "not-found", range);
    const pieces = $isolate(unit.segments, range);
    if (pieces.length === 0)
      return toolFailure("invalid-range", "start/end: the range holds no text that can be formatted");
    for (const piece of pieces) {
      for (const format of input.add) if (!piece.hasFormat(format)) piece.toggleFormat(format);
      for (const format of input.remove) if (piece.hasFormat(format)) piece.toggleFormat(format);
    }
    if (input.link !== undefined) $applyLink(pieces, input.link);
    return { ok: true, blockIds: [input.blockId] };
  });
}
