// What the offline model reads in a conversation: the tool results it has seen, the blocks they
// carried, and how much of the document it has read so far. No I/O, deterministic.

import { type SuggestionOutcome, suggestionOutcomesSchema } from "@coauthor/types";

/** One tool call the model decides to make. */
export interface ScriptedToolCall {
  toolName: string;
  input: Record<string, unknown>;
}

/** What the model says next. */
export interface ScriptedTurn {
  text: string;
  toolCall?: ScriptedToolCall;
}

/**
 * What people decided about the run's suggestions, as the results told it (`decidedByPeople`, see
 * packages/tools/src/suggestion-outcomes.ts), in order.
 */
export function peopleDecisions(seen: SeenToolResult[]): SuggestionOutcome[] {
  return seen.flatMap(({ output }) => {
    if (typeof output !== "object" || output === null || !("decidedByPeople" in output)) return [];
    return suggestionOutcomesSchema.safeParse(output.decidedByPeople).data ?? [];
  });
}

/** A tool result the model has seen, in order. */
export interface SeenToolResult {
  toolName: string;
  output: unknown;
}

export interface Block {
  id: string;
  type: string;
  markdown: string;
}

export function blocksOf(output: unknown): Block[] {
  if (typeof output !== "object" || output === null || !("blocks" in output)) return [];
  const blocks = (output as { blocks: unknown }).blocks;
  if (!Array.isArray(blocks)) return [];
  return blocks.filter(
    (b): b is Block =>
      typeof b === "object" && b !== null && typeof b.id === "string" && typeof b.markdown === "string",
  );
}

/**
 * The document as read so far: the blocks of every `readDocument` page seen, in order, and the
 * call that reads the next page while the last page says more remain (a model pages through the
 * whole document before acting on it, as the tool's notice tells it to).
 */
export function readSoFar(seen: SeenToolResult[]): { blocks: Block[]; readOn?: ScriptedToolCall } {
  const pages = seen.filter((result) => result.toolName === "readDocument");
  const byId = new Map<string, Block>();
  for (const page of pages) for (const block of blocksOf(page.output)) byId.set(block.id, block);
  const last = pages.at(-1)?.output;
  const next =
    typeof last === "object" && last !== null && "nextFromBlock" in last ? last.nextFromBlock : null;
  const readOn =
    typeof next === "number" ? { toolName: "readDocument", input: { fromBlock: next } } : undefined;
  return { blocks: [...byId.values()], readOn };
}

/** Results of calls the run never made (a limit, its time): as if the model had not asked. */
export function notRun(result: SeenToolResult): boolean {
  const output = result.output;
  return (
    typeof output === "object" &&
    output !== null &&
    "code" in output &&
    (output.code === "not-run" || output.code === "run-limit" || output.code === "too-many-tool-calls")
  );
}

export function failed(output: unknown): string | undefined {
  if (typeof output === "object" && output !== null && "ok" in output && output.ok === false) {
    const message = "message" in output ? String(output.message) : "unknown error";
    return message;
  }
  return undefined;
}

export const plainText = (markdown: string) =>
  markdown
    .replace(/^#+\s+/, "")
    .replace(/[*_`~]/g, "")
    .trim();

/** Word count and headings of a document given as blocks. */
export function describeBlocks(blocks: Block[]): string {
  const words = blocks
    .map((b) => plainText(b.markdown))
    .join(" ")
    .split(/\s+/)
    .filter(Boolean).length;
  const headings = blocks.filter((b) => b.type.startsWith("heading")).map((b) => plainText(b.markdown));
  const list =
    headings.length > 0 ? `Headings: ${headings.map((h) => `"${h}"`).join(", ")}.` : "No headings.";
  return `The document has ${words} ${words === 1 ? "word" : "words"}. ${list}`;
}

/** Splits a Markdown document into rough blocks (for chat mode, where no tool runs). */
export function blocksFromMarkdown(markdown: string): Block[] {
  return markdown
    .split(/\n{2,}/)
    .map(
      (chunk, index) =>
        chunk.trim() && {
          id: `c${index}`,
          type: chunk.startsWith("#") ? "heading" : "paragraph",
          markdown: chunk.trim(),
        },
    )
    .filter((b): b is Block => Boolean(b));
}
