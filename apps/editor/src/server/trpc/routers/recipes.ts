import { DEFINITION_TOO_COMPLEX, recipeSaveInputSchema } from "@coauthor/types";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { deleteRecipe, listRecipes, saveRecipe } from "@/server/recipes";
import { documentFor } from "../access";
import { protectedProcedure } from "../init";
import { badRequest } from "../refusal";

const documentInput = z.object({ documentId: z.string().min(1).max(100) });

export const recipesRouter = {
  /** The recipes the caller can run on a document: built in, their own, shared there. */
  list: protectedProcedure.input(documentInput).query(async ({ ctx, input }) => {
    await documentFor(ctx.userId, input.documentId, "read");
    return listRecipes(ctx.userId, input.documentId);
  }),
  /**
   * Saves a recipe the caller wrote. A definition with mistakes is not stored: the answer lists
   * them, each at its line and column (`{ ok: false, issues }`). One the parser is not safe with
   * (nested too deep, an alias, too many keys) is a 400, reason definition-too-complex.
   */
  save: protectedProcedure.input(recipeSaveInputSchema).mutation(async ({ ctx, input }) => {
    // Sharing on a document, or writing recipes at all, is for those who may run agents there.
    await documentFor(ctx.userId, input.documentId, "edit");
    const saved = await saveRecipe(ctx.userId, input);
    if (!saved.ok && "notFound" in saved)
      throw new TRPCError({ code: "NOT_FOUND", message: "recipe not found" });
    if (!saved.ok && "tooComplex" in saved) {
      const { line, column, message } = saved.tooComplex;
      throw badRequest(DEFINITION_TOO_COMPLEX, `definition: ${message} (line ${line}, column ${column})`);
    }
    return saved;
  }),
  remove: protectedProcedure
    .input(z.object({ id: z.string().min(1).max(100) }))
    .mutation(async ({ ctx, input }) => {
      if (!(await deleteRecipe(ctx.userId, input.id)))
        throw new TRPCError({ code: "NOT_FOUND", message: "recipe not found" });
      return { id: input.id };
    }),
} satisfies TRPCRouterRecord;
