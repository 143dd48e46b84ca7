import { z } from "zod";

/** A role an invitation grants (the owner is the document's owner, never invited). */
export const invitationRoleSchema = z.enum(["editor", "commenter", "viewer"]);

const documentId = z.string().min(1).max(100);

/** Invites an email address to a document with a role (owner only). */
export const inviteInputSchema = z.object({
  id: documentId,
  email: z.email().max(320),
  role: invitationRoleSchema,
});
export type InviteInput = z.infer<typeof inviteInputSchema>;

/** Names one pending invitation of a document (to revoke it). */
export const invitationRefSchema = z.object({ id: documentId, invitationId: z.uuid() });

/** A pending invitation as the share dialog lists it. */
export const pendingInvitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: invitationRoleSchema,
  createdAt: z.string(),
});
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>;

// Links in documents: web pages and mail addresses only (no `javascript:`, `data:` and the like).
const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** A link target the editor accepts: an absolute http, https or mailto URL, trimmed. */
export const linkUrlSchema = z
  .string()
  .trim()
  .min(1, "Enter a link address")
  .max(2048, "That address is too long")
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return LINK_PROTOCOLS.has(url.protocol) && (url.protocol === "mailto:" || url.hostname !== "");
  }, "Use an address starting with https://, http:// or mailto:");
