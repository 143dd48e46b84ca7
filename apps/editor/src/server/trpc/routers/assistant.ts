import { runEditsSchema } from "@coauthor/types";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { listConversation } from "@/server/conversation";
import { findRunWithRole } from "@/server/documents";
import { findRunEdits, saveRunEdits } from "@/server/run-edits";
import { listDocumentRuns } from "@/server/run-history";
import { documentFor } from "../access";
import { protectedProcedure } from "../init";

const documentInput = z.object({ documentId: z.string().min(1).max(100) });
const runInput = z.object({ runId: z.string().min(1).max(200) });

/** The caller's own run, if they may still `need` its document (a run is its starter's to undo). */
async function ownRun(userId: string, runId: string, need: "read" | "edit") {
  const found = await findRunWithRole(runId, userId);
  if (!found || found.run.userId !== userId || found.role === null)
    throw new TRPCError({ code: "NOT_FOUND", message: "run not found" });
  if (need === "edit" && found.role === "viewer")
    throw new TRPCError({ code: "FORBIDDEN", message: "a viewer cannot edit this document" });
  return found.run;
}

export const assistantRouter = {
  /** The caller's stored conversation with the assistant on a document, oldest first. */
  conversation: protectedProcedure.input(documentInput).query(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.documentId, "read");
    return listConversation(input.documentId, ctx.userId);
  }),
  /**
   * Agent runs on a document, newest first: every run for its owner (audit), the caller's own
   * for members. Each one's event log: GET /api/runs/:runId/events.
   */
  runs: protectedProcedure.input(documentInput).query(async ({ ctx, input }) => {
    const document = await documentFor(ctx.userId, input.documentId, "read");
    return listDocumentRuns(input.documentId, document.role === "owner" ? undefined : ctx.userId);
  }),
  /** The edits of one of the caller's runs (for Undo run after a reload or on another day), or null. */
  runEdits: protectedProcedure.input(runInput).query(async ({ ctx, input }) => {
    await ownRun(ctx.userId, input.runId, "read");
    return findRunEdits(input.runId);
  }),
  /** Saves the edits of one of the caller's runs, as the tab that runs its tools records them. */
  saveRunEdits: protectedProcedure
    .input(runInput.extend({ edits: runEditsSchema }))
    .mutation(async ({ ctx, input }) => {
      await ownRun(ctx.userId, input.runId, "edit");
      await saveRunEdits(input.runId, input.edits);
      return { runId: input.runId };
    }),
} satisfies TRPCRouterRecord;
