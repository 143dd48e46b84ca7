import type { RunEventOf } from "@coauthor/types";
import { parsePartialJson } from "ai";
import type { InsertPreview, PreviewPosition } from "../editor/agent-live-store";

// Turns the `tool-input-delta` stream of a long insert into a growing preview. The model's input
// is partial JSON (`{"markdown":"Some te`); the preview is plain text outside the Lexical state,
// so it is never saved, undone or sent to the model.

const PREVIEWED_TOOLS = new Set(["insertBlocks", "replaceBlock"]);

/** Feeds tool input deltas in; `show` gets the preview to display (or null for none). */
export interface InsertPreviewFeed {
  push: (event: RunEventOf<"tool-input-delta">) => void;
  /** The tool call ran (or was dropped): its preview goes away for good. */
  settle: (toolCallId: string) => void;
  /** The run ended or was stopped: every preview goes away. */
  reset: () => void;
}

function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null && name in value
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

/** Where the partial input says the text goes; the end until it says otherwise (or when it says "selection"). */
export function previewPosition(input: unknown): PreviewPosition {
  const position = field(input, "position");
  const at = field(position, "at");
  const blockId = field(position, "blockId") ?? field(input, "blockId");
  if ((at === "before" || at === "after") && typeof blockId === "string") return { at, blockId };
  if (at === "start") return { at };
  // replaceBlock names the block it rewrites: preview the new text right after it.
  if (at === undefined && typeof blockId === "string") return { at: "after", blockId };
  return { at: "end" };
}

/** Creates a feed that reports previews through `show`. */
export function createInsertPreviewFeed(show: (preview: InsertPreview | null) => void): InsertPreviewFeed {
  const inputs = new Map<string, string>();
  const settled = new Set<string>();
  let shown: string | null = null;
  let generation = 0;

  return {
    push(event) {
      const id = event.toolCallId;
      if (!PREVIEWED_TOOLS.has(event.toolName) || settled.has(id)) return;
      const raw = (inputs.get(id) ?? "") + event.delta;
      inputs.set(id, raw);
      const pushedIn = generation;
      void parsePartialJson(raw).then(({ value }) => {
        // Drop a parse that a later delta, the call itself or the end of the run has overtaken.
        if (pushedIn !== generation || settled.has(id) || inputs.get(id) !== raw) return;
        const text = field(value, "markdown");
        if (typeof text !== "string" || text === "") return;
        shown = id;
        show({ toolCallId: id, toolName: event.toolName, text, position: previewPosition(value) });
      });
    },
    settle(toolCallId) {
      settled.add(toolCallId);
      inputs.delete(toolCallId);
      if (shown === toolCallId) {
        shown = null;
        show(null);
      }
    },
    reset() {
      generation++;
      inputs.clear();
      settled.clear();
      shown = null;
      show(null);
    },
  };
}
