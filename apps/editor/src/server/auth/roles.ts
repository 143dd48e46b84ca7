import { invitationRoleSchema } from "@coauthor/types";
import type { z } from "zod";

/**
 * A role a document can be shared with (the owner is the document's `owner_id`, not a member):
 * editor (read, edit, comment), commenter (read, comment), viewer (read).
 */
export const memberRoleSchema = invitationRoleSchema;
export type MemberRole = z.infer<typeof memberRoleSchema>;

/** What a user is to a document. */
export type DocumentRole = "owner" | MemberRole;

/**
 * What an action needs: reading (open, chat), commenting (add and reply to comments) or editing
 * (save, agent runs, tool results, resolving any thread).
 */
export type DocumentAccess = "read" | "comment" | "edit";

/** Whether `role` allows `access`. */
export function roleAllows(role: DocumentRole, access: DocumentAccess): boolean {
  if (access === "read") return true;
  if (access === "comment") return role !== "viewer";
  return role === "owner" || role === "editor";
}
