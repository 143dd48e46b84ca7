import { type DocumentDamage, documentDamageInputSchema, lastGoodInputSchema } from "@coauthor/types";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { documentDamage } from "@/server/collab/document-health";
import {
  lastGoodMarkdown,
  lastGoodState,
  type RestoreRefusal,
  restoreLastGood,
} from "@/server/collab/document-restore";
import { closeDocumentSockets } from "@/server/collab/sync-server";
import { documentFor } from "../access";
import { protectedProcedure } from "../init";

const REFUSALS: Record<RestoreRefusal, string> = {
  missing: "document not found",
  "not-damaged": "this document loads; there is nothing to restore",
  "nothing-to-restore": "no good version of this document was ever kept; there is nothing to restore",
};

/** A damaged document: what the page shows (any role) and the way out (restore: the owner; export: anyone). */
export const damageProcedures = {
  /**
   * Whether the document's stored state fails to load, and the last good state it can go back to
   * (looked for only when it is damaged: each version tried is one headless load).
   */
  damage: protectedProcedure.input(documentDamageInputSchema).query(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "read");
    const damage = await documentDamage(input.id);
    if (!damage) throw new TRPCError({ code: "NOT_FOUND", message: REFUSALS.missing });
    const good = damage.damaged ? await lastGoodState(input.id) : null;
    const lastGoodAt = damage.damaged ? (good?.at ?? null) : damage.lastGoodAt;
    return {
      damaged: damage.damaged,
      lastGoodAt: lastGoodAt?.toISOString() ?? null,
      lastGoodVersion:
        good && good.versionId !== null && good.label !== null
          ? { id: good.versionId, label: good.label }
          : null,
    } satisfies DocumentDamage;
  }),

  /** The last good state (or the named version) as Markdown: what a damaged document can still give. */
  lastGoodMarkdown: protectedProcedure.input(lastGoodInputSchema).query(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "read");
    const markdown = await lastGoodMarkdown(input.id, input.versionId);
    if (markdown === null)
      throw new TRPCError({ code: "NOT_FOUND", message: REFUSALS["nothing-to-restore"] });
    return { markdown };
  }),

  /**
   * Replaces a damaged document's state with its last good state, or the version named (owner
   * only); the damaged bytes are kept for an operator. Every open copy is closed and reconnects to
   * the restored state.
   */
  restoreLastGood: protectedProcedure.input(lastGoodInputSchema).mutation(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.id, "owner");
    const outcome = await restoreLastGood(input.id, input.versionId);
    if (!outcome.ok) {
      const code = outcome.refusal === "missing" ? "NOT_FOUND" : "CONFLICT";
      throw new TRPCError({ code, message: REFUSALS[outcome.refusal] });
    }
    closeDocumentSockets(input.id);
    return { id: input.id, restoredAt: outcome.at.toISOString() };
  }),
} satisfies TRPCRouterRecord;
