import { conversationInputSchema, runEditsSchema, runLogInputSchema } from "@coauthor/types";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { roleAllows } from "@/server/auth/roles";
import { clearConversation, listConversation } from "@/server/conversation";
import { findRunWithRole } from "@/server/documents";
import { appendRunEdits, findRunEdits } from "@/server/run-edits";
import { listDocumentRuns } from "@/server/run-history";
import { deleteRunLog } from "@/server/run-log-deletion";
import { documentFor } from "../access";
import { protectedProcedure } from "../init";

const documentInput = z.object({ documentId: z.string().min(1).max(100) });
const runInput = z.object({ runId: z.string().min(1).max(200) });

/** The caller's own run, if they may still `need` its document (a run is its starter's to undo). */
async function ownRun(userId: string, runId: string, need: "read" | "edit") {
  const found = await findRunWithRole(runId, userId);
  if (!found || found.run.userId !== userId || found.role === null)
    throw new TRPCError({ code: "NOT_FOUND", message: "run not found" });
  if (need === "edit" && !roleAllows(found.role, "edit"))
    throw new TRPCError({ code: "FORBIDDEN", message: `a ${found.role} cannot edit this document` });
  return found.run;
}

/**
 * A run whose log the caller may delete: the document's owner any run on it, an editor their own
 * runs (those History shows them). A viewer none (FORBIDDEN, whoever started it); another
 * editor's run, or one on a document they cannot open, is NOT_FOUND.
 */
async function runLogFor(userId: string, runId: string) {
  const found = await findRunWithRole(runId, userId);
  if (!found || found.role === null) throw new TRPCError({ code: "NOT_FOUND", message: "run not found" });
  if (!roleAllows(found.role, "edit"))
    throw new TRPCError({ code: "FORBIDDEN", message: `a ${found.role} cannot delete a run's log` });
  if (found.role !== "owner" && found.run.userId !== userId)
    throw new TRPCError({ code: "NOT_FOUND", message: "run not found" });
  return found.run;
}

/** A run the caller sees in History: their own, or any on a document they own (audit). */
async function visibleRun(userId: string, runId: string) {
  const found = await findRunWithRole(runId, userId);
  if (!found || found.role === null || (found.run.userId !== userId && found.role !== "owner"))
    throw new TRPCError({ code: "NOT_FOUND", message: "run not found" });
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
  /**
   * The edits of a run the caller sees in History (for Undo run after a reload or on another day,
   * and History's diff of what it changed), or null.
   */
  runEdits: protectedProcedure.input(runInput).query(async ({ ctx, input }) => {
    await visibleRun(ctx.userId, input.runId);
    return findRunEdits(input.runId);
  }),
  /**
   * Adds a part of the edits of one of the caller's runs, as the tab that runs its tools records
   * them, after what is stored (earlier tabs' parts, the server executor's calls).
   */
  addRunEdits: protectedProcedure
    .input(runInput.extend({ edits: runEditsSchema }))
    .mutation(async ({ ctx, input }) => {
      await ownRun(ctx.userId, input.runId, "edit");
      await appendRunEdits(input.runId, input.edits);
      return { runId: input.runId };
    }),
  /**
   * Deletes a run's log now (events, streams, tool results; see run-log-deletion.ts): its summary
   * stays in History and its edits stay undoable. A run still going is CONFLICT (stop it first).
   */
  deleteRunLog: protectedProcedure.input(runLogInputSchema).mutation(async ({ ctx, input }) => {
    await runLogFor(ctx.userId, input.runId);
    if ((await deleteRunLog(input.runId)) === "running")
      throw new TRPCError({ code: "CONFLICT", message: "the run is still going: stop it first" });
    return { runId: input.runId };
  }),
  /** Empties the caller's own conversation with the assistant on a document (anyone who may open it). */
  clearConversation: protectedProcedure.input(conversationInputSchema).mutation(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.documentId, "read");
    return { deleted: await clearConversation(input.documentId, ctx.userId) };
  }),
} satisfies TRPCRouterRecord;
