import { invitationRefSchema, inviteInputSchema } from "@coauthor/types";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { memberRoleSchema } from "@/server/auth/roles";
import { closeDocumentSockets } from "@/server/collab/sync-server";
import {
  listInvitations,
  normalEmail,
  revokeInvitation,
  upsertInvitation,
} from "@/server/document-invitations";
import {
  findUserByEmail,
  listMembers,
  removeMember,
  updateMemberRole,
  upsertMember,
} from "@/server/document-members";
import { documentFor } from "../access";
import { protectedProcedure } from "../init";

const documentId = z.string().min(1).max(100);
const memberInput = z.object({ id: documentId, userId: z.string().min(1).max(100) });

function notAMember(): never {
  throw new TRPCError({ code: "NOT_FOUND", message: "no such member" });
}

/**
 * Sharing: the owner adds people by email with a role (an email with no account yet gets a
 * pending invitation), changes roles, removes members and revokes invitations.
 */
export const sharingProcedures = {
  /** Who has access (anyone who may open the document may see this). */
  members: protectedProcedure.input(z.object({ id: documentId })).query(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "read");
    return listMembers(input.id);
  }),

  /**
   * Shares the document with this email, owner only: the verified account with it becomes a member
   * (or changes role). With no account, or one whose email is not verified, a pending invitation
   * waits until the email is verified: registering someone else's address first gets nothing. The
   * answer is the same in both cases, so sharing does not reveal whether an account exists.
   */
  share: protectedProcedure.input(inviteInputSchema).mutation(async ({ ctx, input }) => {
    const document = await documentFor(ctx.userId, input.id, "owner");
    const user = await findUserByEmail(input.email);
    if (user?.id === document.ownerId)
      throw new TRPCError({ code: "BAD_REQUEST", message: "the owner already has access" });
    if (!user?.emailVerified) {
      const invitationId = await upsertInvitation(input.id, input.email, input.role, ctx.userId);
      return { invited: true as const, invitationId, email: normalEmail(input.email), role: input.role };
    }
    await upsertMember(input.id, user.id, input.role);
    // A viewer made editor (or the reverse) reconnects with the new rights.
    closeDocumentSockets(input.id, user.id);
    return { invited: false as const, userId: user.id, role: input.role };
  }),

  /** The pending invitations (emails with no verified account yet); owner only. */
  invitations: protectedProcedure.input(z.object({ id: documentId })).query(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "owner");
    return listInvitations(input.id);
  }),

  /** Withdraws a pending invitation; owner only. */
  revokeInvitation: protectedProcedure.input(invitationRefSchema).mutation(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "owner");
    if (!(await revokeInvitation(input.id, input.invitationId)))
      throw new TRPCError({ code: "NOT_FOUND", message: "no such invitation" });
    return { invitationId: input.invitationId };
  }),

  /** Changes a member's role; owner only. */
  setRole: protectedProcedure
    .input(memberInput.extend({ role: memberRoleSchema }))
    .mutation(async ({ ctx, input }) => {
      await documentFor(ctx.userId, input.id, "owner");
      if (!(await updateMemberRole(input.id, input.userId, input.role))) notAMember();
      closeDocumentSockets(input.id, input.userId);
      return { userId: input.userId, role: input.role };
    }),

  /** Removes a member; owner only. */
  removeMember: protectedProcedure.input(memberInput).mutation(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "owner");
    if (!(await removeMember(input.id, input.userId))) notAMember();
    closeDocumentSockets(input.id, input.userId);
    return { userId: input.userId };
  }),
} satisfies TRPCRouterRecord;
