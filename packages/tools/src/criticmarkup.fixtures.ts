import type { LexicalEditor } from "lexical";
import { expect } from "vitest";
import { importCriticMarkup } from "./criticmarkup-read.ts";
import { createDocumentEditor } from "./document-editor.ts";
import { exportMarkdown } from "./markdown.ts";
import { exportMarkdownView } from "./markdown-views.ts";
import { $decideSuggestions, listSuggestions, type SuggestionAuthor } from "./suggestions.ts";

// The round trip the CriticMarkup tests share: export, import as another writer's suggestions,
// export again.

export const READER: SuggestionAuthor = { authorId: "bob", authorName: "Bob" };

/**
 * Exports `editor` as CriticMarkup, reads it back as `READER`'s suggestions, and checks that the
 * two agree: the same export again, the same accepted and rejected views, the same suggestions
 * (text and reason), all by the reader.
 */
export function roundTrip(editor: LexicalEditor): { critic: string; back: LexicalEditor } {
  const critic = exportMarkdownView(editor, "criticmarkup");
  const back = createDocumentEditor();
  importCriticMarkup(back, critic, READER);
  expect(exportMarkdownView(back, "criticmarkup")).toBe(critic);
  expect(exportMarkdownView(back, "accepted")).toBe(exportMarkdownView(editor, "accepted"));
  expect(exportMarkdownView(back, "rejected")).toBe(exportMarkdownView(editor, "rejected"));
  const shape = (target: LexicalEditor) =>
    listSuggestions(target).map(({ inserted, deleted, reason }) => ({ inserted, deleted, reason }));
  expect(shape(back)).toEqual(shape(editor));
  for (const suggestion of listSuggestions(back)) expect(suggestion.authorName).toBe(READER.authorName);
  return { critic, back };
}

/** Accepts or rejects every pending suggestion of `editor`; its Markdown after. */
export function decided(editor: LexicalEditor, decision: "accept" | "reject"): string {
  const ids = new Set(listSuggestions(editor).map((suggestion) => suggestion.id));
  editor.update(() => void $decideSuggestions(ids, decision), { discrete: true });
  return exportMarkdown(editor);
}
