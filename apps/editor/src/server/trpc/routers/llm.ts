import { listModels, toolPolicy } from "@coauthor/agent-workflow/server";
import { MAX_PROMPT_CHARS, runModeSchema } from "@coauthor/types";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { protectedProcedure } from "../init";

/** What the agent offers the panel: the tools a run may use, and the models. */
export const llmRouter = {
  /** Planner: which tools this run may use and the system prompt it runs with. */
  plan: protectedProcedure
    .input(
      z.object({
        documentId: z.string().min(1).max(100),
        mode: runModeSchema,
        prompt: z.string().max(MAX_PROMPT_CHARS),
      }),
    )
    .query(({ input }) => toolPolicy(input.mode)),
  /** The models this server allows, default first. */
  models: protectedProcedure.query(() => listModels()),
} satisfies TRPCRouterRecord;
