import {
  addCommentInputSchema,
  commentRefSchema,
  editCommentInputSchema,
  mentionsAgent,
  replyInputSchema,
  threadStatusInputSchema,
} from "@coauthor/types";
import type { TRPCRouterRecord } from "@trpc/server";
import { askAgentFromThread } from "@/server/agent/comment-runs";
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
 * comments; owners and editors resolve any thread, a commenter the threads they started. A new
 * comment or reply that mentions `@Coauthor` asks the agent (comment-runs.ts).
 */
export const commentsRouter = {
  add: protectedProcedure.input(addCommentInputSchema).mutation(async ({ ctx, input }) => {
    const { role } = await documentFor(ctx.userId, input.documentId, "comment");
    const stateVector =
      input.stateVector === undefined ? undefined : Buffer.from(input.stateVector, "base64");
    const added = await addComment({ userId: ctx.userId, role, stateVector }, input);
    if (mentionsAgent(input.body))
      askAgentFromThread({ userId: ctx.userId, documentId: input.documentId, threadId: added.threadId });
    return added;
  }),

  reply: protectedProcedure.input(replyInputSchema).mutation(async ({ ctx, input }) => {
    const { role } = await documentFor(ctx.userId, input.documentId, "comment");
    const replied = await replyToComment({ userId: ctx.userId, role }, input);
    if (mentionsAgent(input.body))
      askAgentFromThread({ userId: ctx.userId, documentId: input.documentId, threadId: input.threadId });
    return replied;
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
