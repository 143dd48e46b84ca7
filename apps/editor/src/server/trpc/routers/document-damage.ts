import { type DocumentDamage, documentDamageInputSchema } from "@coauthor/types";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { documentDamage } from "@/server/collab/document-health";
import { type RestoreRefusal, restoreLastGood } from "@/server/collab/document-restore";
import { closeDocumentSockets } from "@/server/collab/sync-server";
import { documentFor } from "../access";
import { protectedProcedure } from "../init";

const REFUSALS: Record<RestoreRefusal, string> = {
  missing: "document not found",
  "not-damaged": "this document loads; there is nothing to restore",
  "nothing-to-restore": "no good version of this document was ever kept; there is nothing to restore",
};

/** A damaged document: what the page shows (any role) and the owner's way out. */
export const damageProcedures = {
  /** Whether the document's stored state fails to load, and when its last good version was kept. */
  damage: protectedProcedure.input(documentDamageInputSchema).query(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "read");
    const damage = await documentDamage(input.id);
    if (!damage) throw new TRPCError({ code: "NOT_FOUND", message: REFUSALS.missing });
    return {
      damaged: damage.damaged,
      lastGoodAt: damage.lastGoodAt?.toISOString() ?? null,
    } satisfies DocumentDamage;
  }),

  /**
   * Replaces a damaged document's state with its last good version (owner only); the damaged bytes
   * are kept for an operator. Every open copy is closed and reconnects to the restored state.
   */
  restoreLastGood: protectedProcedure.input(documentDamageInputSchema).mutation(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "owner");
    const outcome = await restoreLastGood(input.id);
    if (!outcome.ok) {
      const code = outcome.refusal === "missing" ? "NOT_FOUND" : "CONFLICT";
      throw new TRPCError({ code, message: REFUSALS[outcome.refusal] });
    }
    closeDocumentSockets(input.id);
    return { id: input.id, lastGoodAt: outcome.lastGoodAt.toISOString() };
  }),
} satisfies TRPCRouterRecord;
