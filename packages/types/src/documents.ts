import { z } from "zod";
import { boundaryString } from "./client-json.ts";

/** Longest search the home page sends: a phrase, never a pasted chapter (the query scans every visible document). */
export const MAX_DOCUMENT_SEARCH_CHARS = 200;
/** Documents per page of the home list: 1,000 documents never travel (or render) at once. */
export const DOCUMENT_PAGE_SIZE = 50;
/** Characters of a document's text shown under its title on the home page. */
export const DOCUMENT_SNIPPET_CHARS = 160;

// Unicode control characters (C0, DEL and C1; tab and newline included): a search is one line of text.
const CONTROL_CHARACTERS = /\p{Cc}/u;

/** How the home list is ordered: last edited (newest first), title (A to Z) or created (newest first). */
export const DOCUMENT_SORTS = ["edited", "title", "created"] as const;
export type DocumentSort = (typeof DOCUMENT_SORTS)[number];

/** Input of `documents.list`: an optional search over titles and text, the order, and the page (an offset). */
export const documentListInputSchema = z
  .object({
    query: z
      .string()
      .max(MAX_DOCUMENT_SEARCH_CHARS, `a search is at most ${MAX_DOCUMENT_SEARCH_CHARS} characters`)
      .refine((value) => !CONTROL_CHARACTERS.test(value), "a search cannot contain control characters")
      .transform((value) => value.trim())
      .optional(),
    sort: z.enum(DOCUMENT_SORTS).default("edited"),
    /** How many documents of the ordered list come before this page. */
    cursor: z.number().int().min(0).max(1_000_000).default(0),
    /** Sent by TanStack's infinite queries; pages only go forward. */
    direction: z.literal("forward").optional(),
  })
  .strict()
  .default({ sort: "edited", cursor: 0 });
export type DocumentListInput = z.input<typeof documentListInputSchema>;

/** Input of the procedures on one run's log: `assistant.deleteRunLog`. */
export const runLogInputSchema = z.object({ runId: boundaryString(200).pipe(z.string().min(1)) }).strict();

/** Input of `assistant.clearConversation`: the document whose conversation (the caller's own) goes. */
export const conversationInputSchema = z
  .object({ documentId: boundaryString(100).pipe(z.string().min(1)) })
  .strict();
