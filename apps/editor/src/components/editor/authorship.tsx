"use client";

import { $getBlockAuthors, documentAuthors, registerAuthorship } from "@coauthor/tools";
import type { BlockAuthor } from "@coauthor/types";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useEffect, useState } from "react";
import { colorFor } from "./plugins/collaboration-plugin";
import { registerTouchedBlocks } from "./touched-blocks";

// Provenance in the page (packages/tools/src/authorship.ts keeps it in the document): each block
// that names its authors shows the latest on its element (`data-written-by` "agent" or "person",
// its colour in `--author-colour`), which the page styles only while **Show authorship** is on (the
// root's `data-authorship`), with a key of who is who.

/** The agent's colour in the authorship view (every run's, whoever it writes for). */
const AGENT_COLOUR = "#6d28d9";

/** An author's colour wherever authorship is shown: the agent's one colour, a person's cursor colour. */
export const authorColour = (author: BlockAuthor) =>
  author.runId ? AGENT_COLOUR : colorFor(author.authorId);

const describe = (authors: BlockAuthor[]) =>
  `Written by ${authors.map((author) => author.authorName).join(", then ")}`;

/**
 * Keeps provenance as the writer edits (a block the agent wrote names them too once they change it)
 * and marks each block's element with its latest author, after every update that touches it.
 */
export function AuthorshipPlugin({ user }: { user: { id: string; name: string } }) {
  const [editor] = useLexicalComposerContext();
  useEffect(
    () => registerAuthorship(editor, { authorId: user.id, authorName: user.name }),
    [editor, user.id, user.name],
  );
  useEffect(
    () =>
      registerTouchedBlocks(editor, (node, element) => {
        const authors = $getBlockAuthors(node);
        const latest = authors.at(-1);
        if (latest === undefined) {
          delete element.dataset.writtenBy;
          delete element.dataset.authors;
          element.style.removeProperty("--author-colour");
          return;
        }
        element.dataset.writtenBy = latest.runId ? "agent" : "person";
        element.dataset.authors = describe(authors);
        element.style.setProperty("--author-colour", authorColour(latest));
      }),
    [editor],
  );
  return null;
}

/** One entry per name and colour: every run for one writer is "Coauthor for <writer>" in the agent's colour. */
function keyEntries(authors: BlockAuthor[]): Array<{ name: string; colour: string }> {
  const entries = new Map<string, { name: string; colour: string }>();
  for (const author of authors) {
    const entry = { name: author.authorName, colour: authorColour(author) };
    entries.set(`${entry.name}:${entry.colour}`, entry);
  }
  return [...entries.values()];
}

/** The toolbar's **Show authorship** toggle, and while on, the key of the document's authors. */
export function AuthorshipToggle() {
  const [editor] = useLexicalComposerContext();
  const [shown, setShown] = useState(false);
  const [authors, setAuthors] = useState<BlockAuthor[]>([]);
  useEffect(
    () =>
      editor.registerRootListener((root, previous) => {
        if (previous !== null) delete previous.dataset.authorship;
        if (root === null) return;
        if (shown) root.dataset.authorship = "true";
        else delete root.dataset.authorship;
      }),
    [editor, shown],
  );
  useEffect(() => {
    if (!shown) return;
    // The key follows the document while it is shown (a walk of the blocks after each update).
    setAuthors(documentAuthors(editor));
    return editor.registerUpdateListener(() => setAuthors(documentAuthors(editor)));
  }, [editor, shown]);
  return (
    <span className="authorship-toggle">
      <span className="toolbar-divider" />
      <button
        type="button"
        className="tool"
        data-testid="authorship-toggle"
        aria-pressed={shown}
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => setShown((current) => !current)}
      >
        Show authorship
      </button>
      {shown ? (
        <span className="authorship-key" data-testid="authorship-key">
          {authors.length === 0 ? (
            <span className="muted small">Everything here was written by people.</span>
          ) : (
            keyEntries(authors).map(({ name, colour }) => (
              <span key={`${name}:${colour}`} className="authorship-entry">
                <span className="authorship-swatch" style={{ background: colour }} aria-hidden="true" />
                {name}
              </span>
            ))
          )}
        </span>
      ) : null}
    </span>
  );
}
