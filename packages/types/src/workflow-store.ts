import { z } from "zod";

/**
 * A Workflow DevKit run id as the worlds store it (`wrun_` + a ULID). Anything that builds a file
 * name or a query from a run id checks it against this first, so no other string reaches a path.
 */
export const workflowRunIdSchema = z.string().regex(/^wrun_[0-9A-HJKMNP-TV-Z]{26}$/, "not a workflow run id");

/** A run's entry in the local world's `streams/runs/<runId>.json`: the names of its streams. */
export const localRunStreamsSchema = z.object({ streams: z.array(z.string().regex(/^[\w-]+$/)) });

/** The part of a local world hook file (`hooks/<hookId>.json`) that says whose it is. */
export const localHookFileSchema = z.object({ runId: z.string(), token: z.string().optional() });
