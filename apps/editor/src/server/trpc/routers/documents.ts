import { randomUUID } from "node:crypto";
import { MAX_IMPORTED_STATE_BYTES } from "@coauthor/tools/document-work";
import {
  CONTENT_TOO_SLOW,
  DOCUMENT_TOO_LARGE,
  documentExportInputSchema,
  documentListInputSchema,
  INVALID_CONTENT,
  INVALID_CRITICMARKUP,
  markdownFormatSchema,
} from "@coauthor/types";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { CriticMarkupRefused, readDocumentView } from "@/server/collab/document-content";
import { DocumentDamagedError } from "@/server/collab/document-health";
import { whenLiveHolds } from "@/server/collab/live-edit";
import { closeDocumentSockets } from "@/server/collab/sync-server";
import { authorOf } from "@/server/comments";
import { getDb } from "@/server/db";
import { documents } from "@/server/db/schema";
import { deleteOwnedDocument } from "@/server/document-deletion";
import { listDocuments } from "@/server/document-list";
import { DocumentWorkTooSlow, IMPORT_BUDGET_MS, runDocumentWork } from "@/server/document-work/worker-pool";
import { findAccessibleDocument, renameDocument } from "@/server/documents";
import { documentFor } from "../access";
import { protectedProcedure } from "../init";
import { badRequest, refusal } from "../refusal";
import { damageProcedures } from "./document-damage";
import { sharingProcedures } from "./sharing";

const documentId = z.string().min(1).max(100);
const title = z.string().trim().min(1, "title is empty").max(200);
// Markdown a new document starts with (an import); the sync server seeds it, never a client.
const MAX_MARKDOWN_CHARS = 1_000_000;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Who a CriticMarkup import proposes its changes as: the importing writer. */
type Importer = { authorId: string; authorName: string };

/**
 * The Yjs state and search text of a new document holding `markdown` (read as CriticMarkup when
 * `importer` is given: its changes become the importer's pending suggestions), made in a worker
 * thread: a 400 (invalid-content) when it breaks the content rule, a 400 (invalid-criticmarkup)
 * on markup the import does not read, a 413 when it takes longer than IMPORT_BUDGET_MS
 * (content-too-slow) or makes a state past MAX_IMPORTED_STATE_BYTES (document-too-large).
 */
async function seedFromMarkdown(
  markdown: string,
  importer?: Importer,
): Promise<{ state: Uint8Array; plainText: string }> {
  const work = importer
    ? runDocumentWork("importCriticMarkupDocument", { markdown, author: importer }, IMPORT_BUDGET_MS)
    : runDocumentWork("importMarkdownDocument", markdown, IMPORT_BUDGET_MS);
  const imported = await work.catch((error: unknown) => {
    if (error instanceof DocumentWorkTooSlow)
      throw refusal(
        "PAYLOAD_TOO_LARGE",
        CONTENT_TOO_SLOW,
        `markdown: making a document of it took longer than ${error.budgetMs / 1_000} s; split it into smaller documents`,
      );
    throw error;
  });
  if (imported.ok) return imported;
  if ("invalidContent" in imported) throw badRequest(INVALID_CONTENT, `markdown: ${imported.invalidContent}`);
  if ("invalidCriticMarkup" in imported)
    throw badRequest(INVALID_CRITICMARKUP, `markdown: ${imported.invalidCriticMarkup}`);
  throw refusal(
    "PAYLOAD_TOO_LARGE",
    DOCUMENT_TOO_LARGE,
    `markdown: the document it makes would hold ${megabytes(imported.stateBytes)}, more than ${megabytes(MAX_IMPORTED_STATE_BYTES)}; split it into smaller documents`,
  );
}

function forbidden(): never {
  throw new TRPCError({ code: "FORBIDDEN", message: "you may no longer edit this document" });
}

export const documentsRouter = {
  /**
   * A page of the documents the caller may open (owned and shared), with their role, a snippet and
   * who edited them last; searched (titles and text) and ordered in the database.
   */
  list: protectedProcedure
    .input(documentListInputSchema)
    .query(({ ctx, input }) => listDocuments(ctx.userId, input)),

  /**
   * Creates a document owned by the caller: empty (one paragraph) or holding `markdown`. Its Yjs
   * state is seeded here, on the server, so two clients opening it at once never both seed it.
   * Markdown that breaks the content rule is refused (400, reason invalid-content) before anything
   * is stored, and so is Markdown that takes longer than the import budget to convert (413, reason
   * content-too-slow) or makes a larger state than the server serves without stalling (413, reason
   * document-too-large); the conversion runs off the event loop (server/document-work). With
   * `format: "criticmarkup"` the Markdown's CriticMarkup changes become the caller's pending
   * suggestions (docs/suggestions.md, "Export and import").
   */
  create: protectedProcedure
    .input(
      z
        .object({
          title: title.optional(),
          markdown: z.string().max(MAX_MARKDOWN_CHARS).optional(),
          format: markdownFormatSchema.optional(),
        })
        .optional(),
    )
    .mutation(async ({ ctx, input }) => {
      const importer =
        input?.format === "criticmarkup"
          ? { authorId: ctx.userId, authorName: (await authorOf(ctx.userId)).name.slice(0, 120) }
          : undefined;
      const seed = await seedFromMarkdown(input?.markdown ?? "", importer);
      const db = await getDb();
      const id = randomUUID();
      await db.insert(documents).values({
        id,
        ownerId: ctx.userId,
        title: input?.title ?? "Untitled document",
        yjsSnapshot: seed.state,
        plainText: seed.plainText,
        lastEditedBy: ctx.userId,
      });
      // Our own conversion's output: it loads, so it is the first good version. Copied inside the
      // database, which costs it milliseconds, where sending the state a second time would cost
      // the event loop as long as the first (the embedded database works on it).
      await db
        .update(documents)
        .set({ lastGoodSnapshot: sql`${documents.yjsSnapshot}`, lastGoodAt: new Date() })
        .where(eq(documents.id, id));
      return { id };
    }),

  /** Renames a document (owner or editor). */
  rename: protectedProcedure.input(z.object({ id: documentId, title })).mutation(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "edit");
    if (!(await renameDocument(ctx.userId, input.id, input.title))) forbidden();
    return { id: input.id, title: input.title };
  }),

  /**
   * Deletes a document and everything kept about it (runs, tool results, conversation, update log,
   * the workflow world's runs); owner only. Its running runs are stopped first.
   */
  delete: protectedProcedure.input(z.object({ id: documentId })).mutation(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "owner");
    closeDocumentSockets(input.id);
    if (!(await deleteOwnedDocument(ctx.userId, input.id))) forbidden();
    // Again: a socket that connected while the deletion ran is refused from now on, but may be open.
    closeDocumentSockets(input.id);
    return { id: input.id };
  }),

  /** One document's title and the caller's role (its content comes over the sync socket). */
  get: protectedProcedure.input(z.object({ id: documentId })).query(async ({ ctx, input }) => {
    // Any role may read: a document the user can open is theirs to read.
    const row = await findAccessibleDocument(ctx.userId, input.id);
    if (!row) throw new TRPCError({ code: "NOT_FOUND", message: "document not found" });
    return { id: row.id, title: row.title, updatedAt: row.updatedAt, role: row.role };
  }),

  /**
   * The document as Markdown, derived from its Yjs state (the live copy when this instance has one
   * open): in `view` — as if every pending suggestion were accepted, rejected, or in CriticMarkup —
   * or without one every block as the editor shows it; and whether it has pending suggestions (the
   * export offers the views then). A CriticMarkup export that cannot carry the text exactly is
   * refused (400, invalid-criticmarkup).
   */
  export: protectedProcedure.input(documentExportInputSchema).query(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "read");
    // The export holds what the writer's copy held when they asked, typed just before too.
    if (input.stateVector !== undefined)
      await whenLiveHolds(input.id, Buffer.from(input.stateVector, "base64"));
    const exported = await readDocumentView(input.id, input.view).catch((error: unknown) => {
      if (error instanceof DocumentDamagedError)
        throw new TRPCError({ code: "CONFLICT", message: error.message });
      if (error instanceof CriticMarkupRefused) throw badRequest(INVALID_CRITICMARKUP, error.message);
      if (error instanceof DocumentWorkTooSlow)
        throw refusal(
          "PAYLOAD_TOO_LARGE",
          CONTENT_TOO_SLOW,
          `exporting this document took longer than ${error.budgetMs / 1_000} s`,
        );
      throw error;
    });
    if (exported === null) throw new TRPCError({ code: "NOT_FOUND", message: "document not found" });
    return { id: input.id, ...exported };
  }),

  ...sharingProcedures,
  ...damageProcedures,
} satisfies TRPCRouterRecord;
