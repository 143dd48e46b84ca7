// Comments: threads anchored to a range of the document's text, shared live with every co-editor.
// A thread lives in the document's Yjs state (map "comments", written only by the server); its
// anchor is a mark around the commented text (Lexical's MarkNode, carrying the thread id), so it
// follows the text as anyone edits it. A thread whose mark is gone is "on deleted text" and shows
// the quote it was made on.
import { z } from "zod";
import { copyStateVectorSchema } from "./collab.ts";
import { hasForbiddenControl } from "./content-rule.ts";
import { linkUrlSchema } from "./sharing.ts";

/** Longest comment body, in characters (as Google Docs allows about as much). */
export const MAX_COMMENT_CHARS = 5_000;

/** Longest quote a thread keeps of the text it was made on (longer selections are cut, marked …). */
export const MAX_COMMENT_QUOTE_CHARS = 500;

/** A thread or comment id: the server makes them (UUIDs); bounded for every place that echoes one. */
export const commentIdSchema = z.string().min(1).max(64);

/**
 * Tokens of a body that are a link: `scheme://…`, or a scheme browsers run without slashes
 * (`mailto:`, `javascript:`, `data:`, …). Each must be an allowed link. "Note:see" or "10:30" is
 * text, not a link.
 */
const LINK_LIKE = /\b(?:[a-z][a-z0-9+.-]*:\/\/|(?:mailto|javascript|vbscript|data|file|blob):)[^\s<>"]*/gi;

/** The links a comment body holds, as written. */
export function linksIn(body: string): string[] {
  return body.match(LINK_LIKE) ?? [];
}

/** `@` then a name of up to 64 letters, digits, dots, dashes or underscores: a mention. */
const MENTION = /(?:^|[^\p{L}\p{N}_])@([\p{L}\p{N}][\p{L}\p{N}._-]{0,63})/gu;

/** The names a comment body mentions (`@Alice` → "Alice"), in order, without repeats. */
export function mentionsIn(body: string): string[] {
  const names = new Set<string>();
  for (const match of body.matchAll(MENTION)) names.add(match[1] as string);
  return [...names];
}

/**
 * The names a person can be mentioned by, lower-case: their name without spaces, its first word,
 * their email's local part (`@AliceMartin`, `@alice`, `@alice.m` for Alice Martin, alice.m@…).
 */
export function mentionNamesOf(person: { name: string; email?: string | null }): string[] {
  const name = person.name.trim().toLowerCase();
  const local = person.email?.toLowerCase().split("@")[0];
  return [name.replace(/\s+/g, ""), name.split(/\s+/)[0] ?? "", ...(local ? [local] : [])].filter(
    (candidate) => candidate !== "",
  );
}

/** Whether a comment body mentions someone known by `names` (mentionNamesOf). */
export function mentionsAnyOf(body: string, names: readonly string[]): boolean {
  return mentionsIn(body).some((mentioned) => names.includes(mentioned.toLowerCase()));
}

/** The name a comment mentions the agent by: `@Coauthor` asks it (a run that answers in the thread). */
export const AGENT_MENTION_NAME = "coauthor";

/** Whether a comment body asks the agent (`@Coauthor`, any case). */
export function mentionsAgent(body: string): boolean {
  return mentionsAnyOf(body, [AGENT_MENTION_NAME]);
}

/**
 * A comment's text: plain text (newlines and tabs allowed, no other control characters), at most
 * MAX_COMMENT_CHARS, whose links are http, https or mailto. Mentions are checked against the
 * document's members by the server (it knows them).
 */
export const commentBodySchema = z
  .string()
  .trim()
  .min(1, "the comment is empty")
  .max(MAX_COMMENT_CHARS, `a comment holds at most ${MAX_COMMENT_CHARS} characters`)
  .refine((body) => !hasForbiddenControl(body), "the comment has control characters")
  .refine(
    (body) => linksIn(body).every((link) => linkUrlSchema.safeParse(link).success),
    "links in a comment must start with https://, http:// or mailto:",
  );

/** Who wrote a comment: a person, or the agent on a writer's behalf (in one of their runs). */
export const commentAuthorSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("person"), userId: z.string().min(1).max(100), name: z.string().max(120) }),
  z.object({
    kind: z.literal("agent"),
    /** The writer the agent works for. */
    userId: z.string().min(1).max(100),
    name: z.string().max(120),
    runId: z.string().min(1).max(100),
  }),
]);
export type CommentAuthor = z.infer<typeof commentAuthorSchema>;

/** One comment of a thread, as the shared document holds it. */
export const commentSchema = z.object({
  id: commentIdSchema,
  author: commentAuthorSchema,
  body: z.string().max(MAX_COMMENT_CHARS),
  /** When it was written and last edited (ms since the epoch). */
  at: z.number().finite(),
  editedAt: z.number().finite().optional(),
});
export type Comment = z.infer<typeof commentSchema>;

/** A thread as the shared document holds it (its comments, oldest first, beside it). */
export const threadFieldsSchema = z.object({
  id: commentIdSchema,
  /** The text the thread was made on, kept for when that text is deleted. */
  quote: z.string().max(MAX_COMMENT_QUOTE_CHARS + 1),
  status: z.enum(["open", "resolved"]),
  at: z.number().finite(),
  /** Who resolved it, when resolved. */
  resolvedBy: z.string().max(120).optional(),
});

export const commentThreadSchema = threadFieldsSchema.extend({ comments: z.array(commentSchema) });
export type CommentThread = z.infer<typeof commentThreadSchema>;

/** Open threads, and how many of them mention someone (the badge on the Comments button). */
export type OpenThreadCounts = { open: number; mentions: number };

/** Counts the open threads and those where a comment mentions someone known by `names` (mentionNamesOf). */
export function countOpenThreads(
  threads: readonly Pick<CommentThread, "status" | "comments">[],
  names: readonly string[],
): OpenThreadCounts {
  const open = threads.filter((thread) => thread.status === "open");
  const mentions = open.filter((thread) =>
    thread.comments.some((comment) => mentionsAnyOf(comment.body, names)),
  );
  return { open: open.length, mentions: mentions.length };
}

const documentId = z.string().min(1).max(100);

const textPointSchema = z.object({
  blockId: z.string().min(1).max(100),
  offset: z.number().int().min(0).max(10_000_000),
});

/**
 * A new thread on the text from `anchor` to `focus` (points in blocks' text, as the writer's copy
 * held them: `stateVector`, base64, says which state that was), which read `quote` there.
 */
export const addCommentInputSchema = z.object({
  documentId,
  anchor: textPointSchema,
  focus: textPointSchema,
  quote: z
    .string()
    .min(1, "select the text to comment on")
    .max(20_000, "select less text to comment on")
    .refine((quote) => !hasForbiddenControl(quote), "the selection has control characters"),
  body: commentBodySchema,
  stateVector: copyStateVectorSchema.optional(),
});
export type AddCommentInput = z.infer<typeof addCommentInputSchema>;

export const replyInputSchema = z.object({ documentId, threadId: commentIdSchema, body: commentBodySchema });

export const editCommentInputSchema = z.object({
  documentId,
  threadId: commentIdSchema,
  commentId: commentIdSchema,
  body: commentBodySchema,
});

export const commentRefSchema = z.object({
  documentId,
  threadId: commentIdSchema,
  commentId: commentIdSchema,
});

export const threadStatusInputSchema = z.object({
  documentId,
  threadId: commentIdSchema,
  status: z.enum(["open", "resolved"]),
});
