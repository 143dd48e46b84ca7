import { z } from "zod";

/** A role a document can be shared with (the owner is the document's `owner_id`, not a member). */
export const memberRoleSchema = z.enum(["editor", "viewer"]);
export type MemberRole = z.infer<typeof memberRoleSchema>;

/** What a user is to a document. */
export type DocumentRole = "owner" | MemberRole;

/** What an action needs: reading (open, chat) or editing (save, agent runs, tool results). */
export type DocumentAccess = "read" | "edit";

/** Whether `role` allows `access`. */
export function roleAllows(role: DocumentRole, access: DocumentAccess): boolean {
  return access === "read" || role !== "viewer";
}
