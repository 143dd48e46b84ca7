import { randomUUID } from "node:crypto";
import { protectedProcedure } from "@coauthor/agent-workflow/trpc";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/server/db";
import { documents } from "@/server/db/schema";
import {
  findAccessibleDocument,
  listDocuments,
  renameDocument,
  saveDocumentContent,
} from "@/server/documents";
import { documentFor } from "../access";
import { sharingProcedures } from "./sharing";

const documentId = z.string().min(1).max(100);
const title = z.string().trim().min(1, "title is empty").max(200);
// A serialized Lexical editor state: an object with a root node.
const editorState = z
  .object({ root: z.object({ type: z.literal("root"), children: z.array(z.unknown()) }) })
  .loose();
const MAX_CONTENT_CHARS = 5_000_000;

function forbidden(): never {
  throw new TRPCError({ code: "FORBIDDEN", message: "you may no longer edit this document" });
}

export const documentsRouter = {
  /** The documents the caller may open (owned and shared), with their role. */
  list: protectedProcedure.query(({ ctx }) => listDocuments(ctx.userId)),

  /** Creates an empty document owned by the caller. */
  create: protectedProcedure
    .input(z.object({ title: title.optional() }).optional())
    .mutation(async ({ ctx, input }) => {
      const db = await getDb();
      const id = randomUUID();
      await db
        .insert(documents)
        .values({ id, ownerId: ctx.userId, title: input?.title ?? "Untitled document" });
      return { id };
    }),

  /** Renames a document (owner or editor). */
  rename: protectedProcedure.input(z.object({ id: documentId, title })).mutation(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "edit");
    if (!(await renameDocument(ctx.userId, input.id, input.title))) forbidden();
    return { id: input.id, title: input.title };
  }),

  /** Deletes a document (and its runs); owner only. */
  delete: protectedProcedure.input(z.object({ id: documentId })).mutation(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "owner");
    const db = await getDb();
    await db.delete(documents).where(and(eq(documents.id, input.id), eq(documents.ownerId, ctx.userId)));
    return { id: input.id };
  }),

  /** One document with its content (Lexical editor state JSON as a string, or null when new) and the caller's role. */
  get: protectedProcedure.input(z.object({ id: documentId })).query(async ({ ctx, input }) => {
    // Any role may read: a document the user can open is theirs to read.
    const row = await findAccessibleDocument(ctx.userId, input.id);
    if (!row) throw new TRPCError({ code: "NOT_FOUND", message: "document not found" });
    return {
      id: row.id,
      title: row.title,
      content: row.content === null ? null : JSON.stringify(row.content),
      version: row.version,
      updatedAt: row.updatedAt,
      role: row.role,
    };
  }),

  /** Autosave: stores the editor state (JSON string of a Lexical editor state); owner or editor. */
  save: protectedProcedure
    .input(z.object({ id: documentId, content: z.string().max(MAX_CONTENT_CHARS) }))
    .mutation(async ({ ctx, input }) => {
      await documentFor(ctx.userId, input.id, "edit");
      let parsed: unknown;
      try {
        parsed = JSON.parse(input.content);
      } catch {
        throw new TRPCError({ code: "BAD_REQUEST", message: "content is not JSON" });
      }
      const state = editorState.safeParse(parsed);
      if (!state.success)
        throw new TRPCError({ code: "BAD_REQUEST", message: "content is not a Lexical editor state" });
      // The write re-checks the role in the same statement (a role revoked meanwhile wins).
      const version = await saveDocumentContent(ctx.userId, input.id, state.data);
      if (version === null) forbidden();
      return { version };
    }),

  ...sharingProcedures,
} satisfies TRPCRouterRecord;
