import type { MarkdownView } from "@coauthor/types";
import { createHeadlessEditor } from "@lexical/headless";
import { $getRoot, type LexicalEditor, type LexicalNode } from "lexical";
import { $getBlockAuthors } from "./block-authors.ts";
import { $readCriticMarkup } from "./criticmarkup-read.ts";
import { CriticMarkupError } from "./criticmarkup-syntax.ts";
import { $suggestionUnits, $writeCriticMarkup, type Unit } from "./criticmarkup-write.ts";
import { editorNodes } from "./editor-nodes.ts";
import { $documentMarkdown, exportMarkdown } from "./markdown.ts";
import { $blockMarkdown } from "./markdown-write.ts";
import { $getBlockSuggestion } from "./suggestions.ts";

// A document with pending suggestions as Markdown, in one of three views: as if every suggestion
// were accepted, as if every one were rejected, or with them in CriticMarkup. See
// docs/suggestions.md ("Export").

/** Each block as the CriticMarkup round trip must give it back: its Markdown, its change, its group, its reason. */
type Signature = Array<[markdown: string, change: string | null, group: number, reason: string]>;

function unitSignature(units: ReadonlyArray<Unit>): Signature {
  // Groups numbered in order of appearance, as the read-back numbers its suggestion ids.
  let groups = 0;
  return units.flatMap((unit): Signature => {
    if (unit.kind === "same") return [[$blockMarkdown(unit.node), null, -1, ""]];
    const group = groups++;
    const reason = unit.suggestion.reason ?? "";
    if (unit.kind === "lone") return [[$blockMarkdown(unit.node), unit.suggestion.change, group, reason]];
    return [
      [$blockMarkdown(unit.old), "deleted", group, reason],
      [$blockMarkdown(unit.added), "inserted", group, reason],
    ];
  });
}

function $readSignature(blocks: ReadonlyArray<LexicalNode>): Signature {
  const groups = new Map<string, number>();
  return blocks.map((node) => {
    const suggestion = $getBlockSuggestion(node);
    if (suggestion === null) return [$blockMarkdown(node), null, -1, ""];
    const group = groups.get(suggestion.id) ?? groups.size;
    groups.set(suggestion.id, group);
    return [$blockMarkdown(node), suggestion.change, group, suggestion.reason ?? ""];
  });
}

let scratch: LexicalEditor | null = null;

/** The signature of `markdown` read back as CriticMarkup, in a throwaway editor. */
function readBackSignature(markdown: string): Signature {
  scratch ??= createHeadlessEditor({
    namespace: "coauthor-criticmarkup-check",
    nodes: [...editorNodes],
    onError: (error) => {
      throw error;
    },
  });
  let signature: Signature = [];
  scratch.update(
    () => {
      const root = $getRoot().clear();
      root.append(...$readCriticMarkup(markdown, { authorId: "check", authorName: "check" }));
      signature = $readSignature(root.getChildren());
      // Leave the scratch editor small for the next export.
      root.clear();
    },
    { discrete: true },
  );
  return signature;
}

/** The index and Markdown of the first block where two signatures part, for the refusal. */
function firstDifference(expected: Signature, actual: Signature): string {
  const index = expected.findIndex((entry, at) => JSON.stringify(entry) !== JSON.stringify(actual[at]));
  const entry = expected[index === -1 ? expected.length - 1 : index];
  return entry === undefined ? "the document" : `the block "${entry[0].slice(0, 80)}"`;
}

/**
 * The document of `editor` as Markdown in `view`: `accepted` keeps inserted blocks and drops deleted
 * ones, `rejected` the opposite, `criticmarkup` writes the suggestions as CriticMarkup; no view:
 * every block as the editor shows it. A CriticMarkup export is read back before it is given: text
 * it cannot carry exactly (markup delimiters in code, which no escape reaches) is refused with a
 * CriticMarkupError that names the block.
 */
export function exportMarkdownView(editor: LexicalEditor, view: MarkdownView | undefined): string {
  if (view === undefined) return exportMarkdown(editor);
  if (view !== "criticmarkup") {
    const dropped = view === "rejected" ? "inserted" : "deleted";
    return editor.read(() =>
      $documentMarkdown(
        view === "authorship" ? $blockMarkdownWithAuthors : $blockMarkdown,
        $getRoot()
          .getChildren()
          .filter((node) => $getBlockSuggestion(node)?.change !== dropped),
      ),
    );
  }
  const { markdown, signature } = editor.read(() => {
    const units = $suggestionUnits($getRoot().getChildren());
    return { markdown: $writeCriticMarkup(units), signature: unitSignature(units) };
  });
  let readBack: Signature;
  try {
    readBack = readBackSignature(markdown);
  } catch (error) {
    if (!(error instanceof CriticMarkupError)) throw error;
    throw new CriticMarkupError(
      `the export does not read back as CriticMarkup (${error.message}): markup delimiters in code cannot be escaped; export it accepted or rejected instead`,
    );
  }
  if (JSON.stringify(readBack) !== JSON.stringify(signature))
    throw new CriticMarkupError(
      `${firstDifference(signature, readBack)} does not read back the same from CriticMarkup (markup delimiters in code cannot be escaped); export it accepted or rejected instead`,
    );
  return markdown;
}

/**
 * A block's Markdown, after an HTML comment naming who wrote it when it names its authors
 * (`<!-- Written by Coauthor for Alice (run …), then Bob -->`). A "--" in a name would end the
 * comment early: it is written "- -".
 */
function $blockMarkdownWithAuthors(node: LexicalNode): string {
  const authors = $getBlockAuthors(node);
  if (authors.length === 0) return $blockMarkdown(node);
  const names = authors
    .map((author) => (author.runId ? `${author.authorName} (run ${author.runId})` : author.authorName))
    .join(", then ")
    .replaceAll("--", "- -");
  return `<!-- Written by ${names} -->\n${$blockMarkdown(node)}`;
}

/** Whether the document of `editor` has a pending suggestion (the export offers its views then). */
export function hasPendingSuggestions(editor: LexicalEditor): boolean {
  return editor.read(() =>
    $getRoot()
      .getChildren()
      .some((node) => $getBlockSuggestion(node) !== null),
  );
}

/** Whether a block of the document of `editor` names its authors (the export offers its views then too). */
export function namesAuthors(editor: LexicalEditor): boolean {
  return editor.read(() =>
    $getRoot()
      .getChildren()
      .some((node) => $getBlockAuthors(node).length > 0),
  );
}
