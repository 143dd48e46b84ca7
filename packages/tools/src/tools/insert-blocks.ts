import type { InsertBlocksInput, InsertBlocksOutput } from "@coauthor/types/tools";
import {
  $getRoot,
  $isParagraphNode,
  $parseSerializedNode,
  type LexicalEditor,
  type LexicalNode,
} from "lexical";
import { applyAgentEdit, toolFailure } from "../agent-edit.ts";
import { $findBlockById, $getAllBlockIds, $setBlockId, createUniqueBlockId } from "../block-id.ts";
import { markdownToSerializedBlocks } from "../markdown.ts";

/** True for a document that is a single empty paragraph: the placeholder an empty editor keeps. */
function $isBlankDocument(children: LexicalNode[]): boolean {
  const [only] = children;
  return children.length === 1 && $isParagraphNode(only) && only.getTextContentSize() === 0;
}

/** Parses Markdown into blocks and inserts them at the position, as one agent edit. */
export function insertBlocks(editor: LexicalEditor, input: InsertBlocksInput): InsertBlocksOutput {
  // Parse outside the live editor: a Markdown problem cannot touch the document.
  const serialized = markdownToSerializedBlocks(input.markdown);
  if (serialized.length === 0) {
    return toolFailure("invalid-input", "markdown: contains no blocks");
  }
  const { position } = input;
  return applyAgentEdit(editor, (): InsertBlocksOutput => {
    const root = $getRoot();
    const children = root.getChildren();
    let index: number;
    if (position.at === "start") index = 0;
    else if (position.at === "end") index = children.length;
    else {
      const anchor = $findBlockById(position.blockId);
      if (anchor === null) {
        return toolFailure("unknown-block", `position.blockId: no block has id "${position.blockId}"`);
      }
      index = anchor.getIndexWithinParent() + (position.at === "after" ? 1 : 0);
    }
    const taken = $getAllBlockIds();
    const blockIds: string[] = [];
    const nodes = serialized.map((json) => {
      const id = createUniqueBlockId(taken);
      taken.add(id);
      blockIds.push(id);
      return $setBlockId($parseSerializedNode(json), id);
    });
    // Writing into an empty document replaces its placeholder paragraph instead of keeping a blank line.
    const replaceBlank = (position.at === "start" || position.at === "end") && $isBlankDocument(children);
    root.splice(replaceBlank ? 0 : index, replaceBlank ? 1 : 0, nodes);
    return { ok: true, blockIds };
  });
}
