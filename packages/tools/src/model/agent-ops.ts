import { toolSchemas } from "@coauthor/types/tools";
import { $isListItemNode, $isListNode, type ListType } from "@lexical/list";
import { $getRoot, $isRootNode, type LexicalEditor, type LexicalNode } from "lexical";
import { $findBlockById } from "../block-index.ts";
import { createStaleGuard, type StaleGuard } from "../stale-guard.ts";
import type { AgentOp, AgentToolKind, Where } from "./operations.ts";
import { TOKEN_PATTERN } from "./tokens.ts";

// The agent as the browser runs it: tool calls on a headless editor mirroring the writer's copy,
// each through the run's stale guard (use-run-review.ts), with inputs a model would send: block
// ids and text from its last readDocument, which may be out of date by the time it writes.

/** Markdown the agent writes; `{T}` is replaced by the call's marker word. */
const AGENT_TEMPLATES = [
  "A new paragraph by the agent {T}.",
  "## Agent heading {T}",
  "- agent item {T}\n- another agent item",
  "> Agent quote {T}",
  "First agent line {T}.\n\nSecond agent paragraph.",
  "```\nagent code {T}\n```",
] as const;

/** Failures a model's call may meet in a changing document; anything else is a bug. */
const EXPECTED_FAILURES = new Set([
  "stale-target",
  "unknown-block",
  "wrong-block-type",
  "not-found",
  "invalid-range",
  "invalid-position",
  "invalid-markdown",
]);

/** A block or list item as the model last read it. */
interface ReadBlock {
  id: string;
  text: string;
}

/** One tool call: the tool, its input, and the marker word its input writes (if any). */
export interface AgentCall {
  tool: AgentToolKind;
  input: Record<string, unknown>;
  writes: string | null;
}

export type CallResult = { ok: true; blockIds: string[] } | { ok: false; code: string };

export class AgentSession {
  private guard: StaleGuard;
  private read: ReadBlock[] = [];
  /** Marker words the model has read in this run. */
  private readonly seen = new Set<string>();

  private readonly editor: LexicalEditor;

  constructor(editor: LexicalEditor) {
    this.editor = editor;
    this.guard = createStaleGuard(editor);
  }

  /** A new run: what the previous run's model read is forgotten (a new guard), and it reads first. */
  async newRun(): Promise<void> {
    this.guard = createStaleGuard(this.editor);
    this.seen.clear();
    await this.readDocument();
  }

  /** The model reads the whole document; the guard remembers it, and so does the model. */
  async readDocument(): Promise<void> {
    const result = toolSchemas.readDocument.output.parse(await this.guard.run("readDocument", {}));
    if (!result.ok) throw new Error(`readDocument failed: ${result.message}`);
    this.read = result.blocks.flatMap((block) => [
      { id: block.id, text: this.editor.read(() => $findBlockById(block.id)?.getTextContent() ?? "") },
      ...(block.items ?? []).map((item) => ({ id: item.id, text: item.text })),
    ]);
    for (const block of this.read)
      for (const match of block.text.matchAll(TOKEN_PATTERN)) this.seen.add(match[0]);
  }

  /** The model wrote `marker` itself (it knows its own words without reading them). */
  wrote(marker: string): void {
    this.seen.add(marker);
  }

  /** Whether the model has read (or written) `marker` in this run: the guard should stop it removing anything else. */
  hasRead(marker: string): boolean {
    return this.seen.has(marker);
  }

  private block(pick: number): ReadBlock | undefined {
    return this.read[pick % Math.max(this.read.length, 1)];
  }

  private position(where: Where, anchor: number): Record<string, string> | null {
    if (where === "start" || where === "end") return { at: where };
    const block = this.block(anchor);
    return block === undefined ? null : { at: where, blockId: block.id };
  }

  /** The call `op` makes from the last read, or null when the read offers nothing to aim at. */
  call(op: Exclude<AgentOp, { kind: "read" | "newRun" }>, marker: string): AgentCall | null {
    const template = (n: number) =>
      (AGENT_TEMPLATES[n % AGENT_TEMPLATES.length] ?? AGENT_TEMPLATES[0]).replace("{T}", marker);
    if (op.kind === "insertBlocks") {
      const position = this.position(op.where, op.anchor);
      if (position === null) return null;
      return { tool: op.kind, input: { markdown: template(op.template), position }, writes: marker };
    }
    const block = this.block(op.block);
    if (block === undefined) return null;
    switch (op.kind) {
      case "replaceBlock":
        return {
          tool: op.kind,
          input: { blockId: block.id, markdown: template(op.template) },
          writes: marker,
        };
      case "replaceText": {
        // A word the model could pick; an all-capitals word other than a whole marker (the seed's
        // "A") could also match inside a marker word, which the test could then not tell from a loss.
        const words = (block.text.match(/[A-Za-z]+/g) ?? []).filter(
          (word) => /[a-z]/.test(word) || new RegExp(`^${TOKEN_PATTERN.source}$`).test(word),
        );
        const search = words[op.word % Math.max(words.length, 1)];
        if (search === undefined) return null;
        const scope = op.everywhere ? {} : { blockId: block.id };
        const occurrence = op.all ? "all" : "first";
        return { tool: op.kind, input: { search, replace: marker, occurrence, ...scope }, writes: marker };
      }
      case "deleteBlocks": {
        const ids = [block.id];
        const next = this.block(op.block + 1);
        if (op.count > 1 && next !== undefined && next.id !== block.id) ids.push(next.id);
        return { tool: op.kind, input: { blockIds: ids }, writes: null };
      }
      case "formatText": {
        if (block.text.length === 0) return null;
        const start = op.at % block.text.length;
        const end = start + 1 + (op.length % (block.text.length - start));
        const change = op.remove ? { remove: [op.format] } : { add: [op.format] };
        return { tool: op.kind, input: { blockId: block.id, start, end, ...change }, writes: null };
      }
      case "setBlockType":
        return { tool: op.kind, input: { blockId: block.id, type: op.type }, writes: null };
      case "moveBlock": {
        const position = this.position(op.where, op.anchor);
        if (position === null) return null;
        return { tool: op.kind, input: { blockId: block.id, position }, writes: null };
      }
    }
  }

  /** Runs `call` through the run's guard; a failure the model could not have caused throws. */
  async run(call: AgentCall): Promise<CallResult> {
    const raw = await this.guard.run(call.tool, call.input);
    const parsed = toolSchemas[call.tool].output.safeParse(raw);
    if (!parsed.success)
      throw new Error(`${call.tool} returned what its schema rejects: ${JSON.stringify(raw)}`);
    const result = parsed.data;
    if (!result.ok) {
      if (!EXPECTED_FAILURES.has(result.code)) {
        throw new Error(
          `${call.tool}(${JSON.stringify(call.input)}) failed: ${result.code}: ${result.message}`,
        );
      }
      return { ok: false, code: result.code };
    }
    return { ok: true, blockIds: result.blockIds };
  }
}

const LIST_TYPES: Record<string, ListType> = {
  "bullet-list": "bullet",
  "number-list": "number",
  "check-list": "check",
};

/** The list type of `node` when it is a list, else null. */
function listTypeOf(node: LexicalNode | null): ListType | null {
  return $isListNode(node) ? node.getListType() : null;
}

/**
 * Known issue, left out of the model's runs: Lexical's list transform merges a list into the list
 * before it when both have the same type, so a call that writes a list next to a list of its type
 * (insertBlocks or replaceBlock with a Markdown list, setBlockType to a list type) returns the id of
 * a list that no longer exists, or makes the neighbouring list's id vanish. True when `call` would
 * do that.
 */
export function mergesWithNeighbourList(editor: LexicalEditor, call: AgentCall): boolean {
  return editor.read(() => {
    const input = call.input;
    const meets = (type: ListType | null, prev: LexicalNode | null, next: LexicalNode | null) =>
      type !== null && (listTypeOf(prev) === type || listTypeOf(next) === type);
    const markdown = String(input.markdown);
    const written: ListType | null = /^- /.test(markdown)
      ? "bullet"
      : /^\d+\. /.test(markdown)
        ? "number"
        : null;
    if (call.tool === "replaceBlock") {
      // A list item replaced by list items stays in its list; a top-level block takes the list's place.
      const target = $findBlockById(String(input.blockId));
      if (target === null || !$isRootNode(target.getParent())) return false;
      return meets(written, target.getPreviousSibling(), target.getNextSibling());
    }
    if (call.tool === "insertBlocks") {
      const type = written;
      const position = input.position as { at: string; blockId?: string };
      const root = $getRoot();
      if (position.at === "start") return meets(type, null, root.getFirstChild());
      if (position.at === "end") return meets(type, root.getLastChild(), null);
      const anchor = $findBlockById(position.blockId ?? "");
      if (anchor === null || !$isRootNode(anchor.getParent())) return false;
      return position.at === "after"
        ? meets(type, anchor, anchor.getNextSibling())
        : meets(type, anchor.getPreviousSibling(), anchor);
    }
    if (call.tool === "setBlockType") {
      const type = LIST_TYPES[String(input.type)] ?? null;
      const node = $findBlockById(String(input.blockId));
      if (node === null) return false;
      if ($isRootNode(node.getParent())) return meets(type, node.getPreviousSibling(), node.getNextSibling());
      const list = node.getParent();
      if (!$isListItemNode(node) || !$isListNode(list) || !$isRootNode(list.getParent())) return false;
      // The item leaves its list: the new block goes after the list's first part, before its rest.
      const rest = node.getNextSibling() !== null ? list : list.getNextSibling();
      const first = node.getPreviousSibling() !== null ? list : list.getPreviousSibling();
      return meets(type, first, rest);
    }
    return false;
  });
}
