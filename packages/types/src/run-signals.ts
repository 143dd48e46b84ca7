import { z } from "zod";
import { workflowRunIdSchema } from "./workflow-store.ts";

/**
 * What one instance tells the others about a run (PostgreSQL NOTIFY payload): a tool call's result
 * was recorded, or, without `toolCallId`, the run was stopped. Ids only: the waiting step reads the
 * result itself from the store, so no document text travels on the channel.
 */
export const runSignalSchema = z.strictObject({
  runId: workflowRunIdSchema,
  toolCallId: z.string().min(1).max(200).optional(),
});

export type RunSignal = z.infer<typeof runSignalSchema>;
