import {
  addCommentInputSchema,
  commentRefSchema,
  editCommentInputSchema,
  replyInputSchema,
  threadStatusInputSchema,
} from "@coauthor/types";
import type { TRPCRouterRecord } from "@trpc/server";
import {
  addComment,
  deleteOwnComment,
  editOwnComment,
  replyToComment,
  setCommentStatus,
} from "@/server/comments";
import { documentFor } from "../access";
import { protectedProcedure } from "../init";

/**
 * Comment threads. Every copy reads them live from the shared document; they are written only
 * here: owners, editors and commenters add and reply; anyone edits or deletes only their own
 * comments; owners and editors resolve any thread, a commenter the threads they started.
 */
export const commentsRouter = {
  add: protectedProcedure.input(addCommentInputSchema).mutation(async ({ ctx, input }) => {
    const { role } = await documentFor(ctx.userId, input.documentId, "comment");
    const stateVector =
      input.stateVector === undefined ? undefined : Buffer.from(input.stateVector, "base64");
    return addComment({ userId: ctx.userId, role, stateVector }, input);
  }),

  reply: protectedProcedure.input(replyInputSchema).mutation(async ({ ctx, input }) => {
    const { role } = await documentFor(ctx.userId, input.documentId, "comment");
    return replyToComment({ userId: ctx.userId, role }, input);
  }),

  edit: protectedProcedure.input(editCommentInputSchema).mutation(async ({ ctx, input }) => {
    const { role } = await documentFor(ctx.userId, input.documentId, "comment");
    await editOwnComment({ userId: ctx.userId, role }, input);
    return { commentId: input.commentId };
  }),

  delete: protectedProcedure.input(commentRefSchema).mutation(async ({ ctx, input }) => {
    const { role } = await documentFor(ctx.userId, input.documentId, "comment");
    return { deleted: await deleteOwnComment({ userId: ctx.userId, role }, input) };
  }),

  setStatus: protectedProcedure.input(threadStatusInputSchema).mutation(async ({ ctx, input }) => {
    const { role } = await documentFor(ctx.userId, input.documentId, "comment");
    await setCommentStatus({ userId: ctx.userId, role }, input);
    return { status: input.status };
  }),
} satisfies TRPCRouterRecord;
