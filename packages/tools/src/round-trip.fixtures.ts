import { $createCodeNode } from "@lexical/code";
import { $createHorizontalRuleNode } from "@lexical/extension";
import { $createLinkNode } from "@lexical/link";
import { $createListItemNode, $createListNode, type ListNode, type ListType } from "@lexical/list";
import { $createHeadingNode, $createQuoteNode, type HeadingTagType } from "@lexical/rich-text";
import {
  $createTableCellNode,
  $createTableNode,
  $createTableRowNode,
  TableCellHeaderStates,
} from "@lexical/table";
import fc from "fast-check";
import {
  $createParagraphNode,
  $createTextNode,
  $getRoot,
  type ElementNode,
  type LexicalNode,
  type TextFormatType,
} from "lexical";

// Test-only: arbitrary documents for the round-trip property, built straight as Lexical nodes.

export const FORMATS = ["bold", "italic", "strikethrough", "code"] as const satisfies TextFormatType[];
export type Run = {
  text: string;
  formats: readonly (typeof FORMATS)[number][];
  link?: string;
  glued?: boolean;
};
export type Item = { runs: Run[]; checked: boolean; children: readonly Item[] };
export type Block =
  | { kind: "paragraph" | "quote"; runs: Run[] }
  | { kind: "heading"; level: number; runs: Run[] }
  | { kind: "code"; language: string; text: string }
  | { kind: "list"; type: ListType; items: Item[] }
  | { kind: "table"; rows: Run[][][] }
  | { kind: "rule" };

// Words mix letters with every character Markdown gives a meaning to, so escaping is exercised.
const special = fc
  .stringMatching(/^[A-Za-z0-9*_`~#>+=&|![\]\\<.,:;()-]{1,8}$/)
  .filter((w) => /[A-Za-z0-9]/.test(w));
// Plain words: most take the export's fast path (markdown-fast.ts).
const plain = fc.stringMatching(/^[A-Za-z0-9.,;'"?]{1,8}$/);
const textOf = (word: fc.Arbitrary<string>) =>
  fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(" "));
const formats: fc.Arbitrary<Run["formats"]> = fc.subarray<Run["formats"][number]>([
  "bold",
  "italic",
  "strikethrough",
  "code",
]);
const specialRun: fc.Arbitrary<Run> = fc.record({ text: textOf(special), formats, glued: fc.boolean() });
const linkRun: fc.Arbitrary<Run> = fc.record({
  text: textOf(special),
  formats,
  link: fc.constantFrom("https://example.com/a", "https://lexical.dev/docs?x=1", "/a path (draft).md"),
});
const plainRun: fc.Arbitrary<Run> = fc.record({ text: textOf(plain), formats, glued: fc.boolean() });
// Runs are separated by a space unless glued: formats then meet inside a word.
const runs = fc.oneof(
  fc.array(specialRun, { minLength: 1, maxLength: 4 }),
  fc.array(fc.oneof(plainRun, linkRun), { minLength: 1, maxLength: 4 }),
);
// GFM cannot write a backslash right before a pipe in a code span in a table: micromark reads
// `\|` there as an escaped pipe and `\\|` as two backslashes and a pipe.
const cellRun = fc
  .oneof(specialRun, plainRun)
  .map((r) => (r.formats.includes("code") ? { ...r, text: r.text.replace(/\\+\|/g, "|") } : r));
const item: fc.Arbitrary<Item> = fc.letrec<{ item: Item }>((tie) => ({
  item: fc.record({
    runs,
    checked: fc.boolean(),
    children: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constant<readonly Item[]>([]),
      fc.array(tie("item"), { maxLength: 2 }),
    ),
  }),
})).item;

/** Arbitrary block. */
export const blockArb: fc.Arbitrary<Block> = fc.oneof(
  fc.constant<Block>({ kind: "rule" }),
  fc.record({ kind: fc.constantFrom("paragraph" as const, "quote" as const), runs }),
  fc.record({ kind: fc.constant("heading" as const), level: fc.integer({ min: 1, max: 6 }), runs }),
  fc.record({
    kind: fc.constant("code" as const),
    language: fc.constantFrom("", "ts", "python"),
    text: fc
      .array(fc.stringMatching(/^[ -~]{0,20}$/), { minLength: 1, maxLength: 3 })
      .map((lines) => lines.join("\n")),
  }),
  fc.record({
    kind: fc.constant("list" as const),
    type: fc.constantFrom<ListType>("bullet", "number", "check"),
    items: fc.array(item, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constant("table" as const),
    rows: fc
      .integer({ min: 1, max: 3 })
      .chain((width) =>
        fc.array(
          fc.array(fc.array(cellRun, { minLength: 1, maxLength: 2 }), { minLength: width, maxLength: width }),
          { minLength: 1, maxLength: 3 },
        ),
      ),
  }),
);

function $appendRuns(parent: ElementNode, list: Run[]): ElementNode {
  list.forEach((r, i) => {
    const node = $createTextNode(r.text);
    for (const format of r.formats) node.toggleFormat(format);
    const target = r.link ? $createLinkNode(r.link).append(node) : node;
    parent.append(...(i > 0 && !r.glued ? [$createTextNode(" ")] : []), target);
  });
  return parent;
}

function $list(type: ListType, items: readonly Item[]): ListNode {
  const list = $createListNode(type);
  for (const entry of items) {
    const node = $createListItemNode(type === "check" ? entry.checked : undefined);
    list.append($appendRuns(node, entry.runs));
    if (entry.children.length > 0) list.append($createListItemNode().append($list(type, entry.children)));
  }
  return list;
}

function $block(block: Block): LexicalNode {
  switch (block.kind) {
    case "paragraph":
      return $appendRuns($createParagraphNode(), block.runs);
    case "quote":
      return $appendRuns($createQuoteNode(), block.runs);
    case "heading":
      return $appendRuns($createHeadingNode(`h${block.level}` as HeadingTagType), block.runs);
    case "code":
      return $createCodeNode(block.language || undefined).append($createTextNode(block.text));
    case "list":
      return $list(block.type, block.items);
    case "rule":
      return $createHorizontalRuleNode();
    case "table": {
      const table = $createTableNode();
      block.rows.forEach((cells, r) => {
        const row = $createTableRowNode();
        for (const cell of cells) {
          const header = r === 0 ? TableCellHeaderStates.ROW : TableCellHeaderStates.NO_STATUS;
          row.append($createTableCellNode(header).append($appendRuns($createParagraphNode(), cell)));
        }
        table.append(row);
      });
      return table;
    }
  }
}

/** Replaces the document with `blocks` (inside an update). */
export function $buildDocument(blocks: Block[]): void {
  $getRoot()
    .clear()
    .append(...blocks.map($block));
}
