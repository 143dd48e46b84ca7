import { protectedProcedure } from "@coauthor/agent-workflow/trpc";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { listConversation } from "@/server/conversation";
import { listDocumentRuns } from "@/server/run-history";
import { documentFor } from "../access";

const documentInput = z.object({ documentId: z.string().min(1).max(100) });

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
} satisfies TRPCRouterRecord;
