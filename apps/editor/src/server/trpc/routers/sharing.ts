import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { memberRoleSchema } from "@/server/auth/roles";
import { closeDocumentSockets } from "@/server/collab/sync-server";
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

/** Sharing: the owner adds people by email with a role, changes roles and removes members. */
export const sharingProcedures = {
  /** Who has access (anyone who may open the document may see this). */
  members: protectedProcedure.input(z.object({ id: documentId })).query(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "read");
    return listMembers(input.id);
  }),

  /** Shares the document with the user of this email (or changes their role); owner only. */
  share: protectedProcedure
    .input(z.object({ id: documentId, email: z.email().max(320), role: memberRoleSchema }))
    .mutation(async ({ ctx, input }) => {
      const document = await documentFor(ctx.userId, input.id, "owner");
      const user = await findUserByEmail(input.email);
      if (!user) throw new TRPCError({ code: "NOT_FOUND", message: "no account with this email" });
      if (user.id === document.ownerId)
        throw new TRPCError({ code: "BAD_REQUEST", message: "the owner already has access" });
      await upsertMember(input.id, user.id, input.role);
      // A viewer made editor (or the reverse) reconnects with the new rights.
      closeDocumentSockets(input.id, user.id);
      return { userId: user.id, role: input.role };
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
