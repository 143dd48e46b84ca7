import { DOCUMENT_PAGE_SIZE, DOCUMENT_SNIPPET_CHARS, type DocumentSort } from "@coauthor/types";
import { and, asc, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { getDb } from "./db";
import { commentThreads, documentMembers, documents, runs, users } from "./db/schema";
import { membershipOf, roleOf, visibleTo } from "./documents";

/** Characters of text shown before a search's first match in a snippet, so the match reads in context. */
const SNIPPET_LEAD = 40;

const lastEditor = alias(users, "last_editor");

/** `text` as a LIKE pattern that matches it anywhere, its wildcards (`%`, `_`) and escapes taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** How many of the listed document's threads are open (from the threads' summary, not its state). */
const openThreads = sql<number>`(select count(*) from ${commentThreads}
  where ${commentThreads.documentId} = ${documents.id} and ${commentThreads.status} = 'open')::int`;

/** How many of the listed document's open threads mention `userId`. */
const openMentionsOf = (userId: string) => sql<number>`(select count(*) from ${commentThreads}
  where ${commentThreads.documentId} = ${documents.id} and ${commentThreads.status} = 'open'
    and ${userId} = any(${commentThreads.mentionedUserIds}))::int`;

/** How many of `userId`'s agent runs are going on the listed document (a run in the background among them). */
const runningRunsOf = (userId: string) => sql<number>`(select count(*) from ${runs}
  where ${runs.documentId} = ${documents.id} and ${runs.userId} = ${userId} and ${runs.status} = 'running')::int`;

const ORDER: Record<DocumentSort, SQL[]> = {
  edited: [desc(documents.updatedAt), asc(documents.id)],
  title: [asc(sql`lower(${documents.title})`), asc(documents.id)],
  created: [desc(documents.createdAt), asc(documents.id)],
};

/**
 * One page of the documents the user may open (owned and shared), with their role, a snippet of
 * their text, who edited them last, how many comment threads are open and mention the user, and how
 * many of the user's agent runs are going on it. `query` matches titles and text, case-insensitively, in the
 * database (ILIKE over the maintained `plain_text` column: the same on PGlite and PostgreSQL); with
 * a query the snippet starts just before the first match in the text.
 */
export async function listDocuments(
  userId: string,
  { query, sort, cursor }: { query?: string; sort: DocumentSort; cursor: number },
) {
  const db = await getDb();
  const pattern = query ? containsPattern(query) : undefined;
  const matchAt = query ? sql`strpos(lower(${documents.plainText}), lower(${query}))` : sql`0`;
  const snippetStart = sql`greatest(1, ${matchAt} - ${SNIPPET_LEAD})`;
  const rows = await db
    .select({
      id: documents.id,
      title: documents.title,
      updatedAt: documents.updatedAt,
      createdAt: documents.createdAt,
      role: roleOf(userId),
      snippet: sql<string>`substr(${documents.plainText}, ${snippetStart}, ${DOCUMENT_SNIPPET_CHARS})`,
      snippetCut: sql<boolean>`${snippetStart} > 1`,
      lastEditedBy: lastEditor.name,
      openThreads,
      openMentions: openMentionsOf(userId),
      runningRuns: runningRunsOf(userId),
    })
    .from(documents)
    .leftJoin(documentMembers, membershipOf(userId))
    .leftJoin(lastEditor, eq(lastEditor.id, documents.lastEditedBy))
    .where(
      and(
        visibleTo(userId),
        pattern ? or(ilike(documents.title, pattern), ilike(documents.plainText, pattern)) : undefined,
      ),
    )
    .orderBy(...ORDER[sort])
    // One more than a page: whether there is a next one, without counting them all.
    .limit(DOCUMENT_PAGE_SIZE + 1)
    .offset(cursor);
  const more = rows.length > DOCUMENT_PAGE_SIZE;
  return {
    items: rows.slice(0, DOCUMENT_PAGE_SIZE).map(({ snippetCut, snippet, ...row }) => ({
      ...row,
      snippet: `${snippetCut ? "…" : ""}${snippet.replace(/\s+/g, " ").trim()}`,
    })),
    nextCursor: more ? cursor + DOCUMENT_PAGE_SIZE : null,
  };
}
