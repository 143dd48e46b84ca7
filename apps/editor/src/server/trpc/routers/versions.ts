import { CONTENT_TOO_SLOW, copyStateVectorSchema } from "@coauthor/types";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { whenLiveHolds } from "@/server/collab/live-edit";
import { DocumentWorkTooSlow } from "@/server/document-work/worker-pool";
import { listVersions, restoreVersion, saveVersion, versionContent } from "@/server/versions";
import { documentFor } from "../access";
import { protectedProcedure } from "../init";
import { refusal } from "../refusal";

const documentId = z.string().min(1).max(100);
const versionId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
// Printable text only: a name is shown in lists and labels.
const versionName = z
  .string()
  .trim()
  .min(1, "the name is empty")
  .max(120)
  .regex(/^[^\p{Cc}]*$/u, "the name has control characters");

function noSuchVersion(): never {
  throw new TRPCError({ code: "NOT_FOUND", message: "this document has no such version" });
}

/**
 * Version history: anyone who may open the document lists and reads its versions; owners and
 * editors save named versions and restore one (a forward change every copy receives).
 */
export const versionsRouter = {
  list: protectedProcedure.input(z.object({ documentId })).query(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.documentId, "read");
    return listVersions(input.documentId);
  }),

  read: protectedProcedure.input(z.object({ documentId, versionId })).query(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.documentId, "read");
    const version = await versionContent(input.documentId, input.versionId).catch((error: unknown) => {
      if (error instanceof DocumentWorkTooSlow)
        throw refusal(
          "PAYLOAD_TOO_LARGE",
          CONTENT_TOO_SLOW,
          `reading this version took longer than ${error.budgetMs / 1_000} s`,
        );
      throw error;
    });
    if (version === null) noSuchVersion();
    return { versionId: input.versionId, markdown: version.markdown, blocks: version.blocks };
  }),

  save: protectedProcedure
    .input(z.object({ documentId, name: versionName, stateVector: copyStateVectorSchema.optional() }))
    .mutation(async ({ ctx, input }) => {
      await documentFor(ctx.userId, input.documentId, "edit");
      // The version holds what the writer's copy held when they pressed Save, typed just before too.
      if (input.stateVector !== undefined)
        await whenLiveHolds(input.documentId, Buffer.from(input.stateVector, "base64"));
      const id = await saveVersion(input.documentId, {
        kind: "named",
        label: input.name,
        createdBy: ctx.userId,
      });
      if (id === null) throw new TRPCError({ code: "NOT_FOUND", message: "document not found" });
      return { versionId: id };
    }),

  restore: protectedProcedure.input(z.object({ documentId, versionId })).mutation(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.documentId, "edit");
    const summary = await restoreVersion(input.documentId, input.versionId, ctx.userId);
    if (summary === null) noSuchVersion();
    return summary;
  }),
} satisfies TRPCRouterRecord;
