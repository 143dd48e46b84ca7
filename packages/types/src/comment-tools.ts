// The agent's comment tools: run by the server (threads are written only there), never by a tab.
// Their results enter the conversation like an editor tool's.
import { z } from "zod";
import { commentBodySchema, commentIdSchema } from "./comments.ts";
import { toolFailureSchema } from "./tools.ts";

export const COMMENT_TOOL_NAMES = ["listComments", "addComment", "replyToComment", "resolveComment"] as const;
export const commentToolNameSchema = z.enum(COMMENT_TOOL_NAMES);
export type CommentToolName = z.infer<typeof commentToolNameSchema>;

/** True when tool `name` is a comment tool (the server runs it). */
export function isCommentTool(name: string): name is CommentToolName {
  return (COMMENT_TOOL_NAMES as readonly string[]).includes(name);
}

const failure = <T extends z.ZodObject<{ ok: z.ZodLiteral<true> }>>(success: T) =>
  z.discriminatedUnion("ok", [success, toolFailureSchema]);

export const listCommentsInputSchema = z.object({
  status: z.enum(["open", "resolved", "all"]).default("open"),
});
export const listCommentsOutputSchema = failure(
  z.object({
    ok: z.literal(true),
    threads: z.array(
      z.object({
        threadId: z.string(),
        quote: z.string(),
        status: z.enum(["open", "resolved"]),
        /** False when the text it was on is deleted. */
        onText: z.boolean(),
        comments: z.array(z.object({ author: z.string(), text: z.string() })),
      }),
    ),
  }),
);

export const addCommentToolInputSchema = z.object({
  blockId: z.string().min(1).max(100),
  quote: z.string().min(1).max(500),
  comment: commentBodySchema,
});
export const addCommentToolOutputSchema = failure(z.object({ ok: z.literal(true), threadId: z.string() }));

export const replyToCommentToolInputSchema = z.object({
  threadId: commentIdSchema,
  comment: commentBodySchema,
});
export const replyToCommentToolOutputSchema = failure(
  z.object({ ok: z.literal(true), commentId: z.string() }),
);

export const resolveCommentToolInputSchema = z.object({ threadId: commentIdSchema });
export const resolveCommentToolOutputSchema = failure(z.object({ ok: z.literal(true) }));

export const commentToolSchemas = {
  listComments: { input: listCommentsInputSchema, output: listCommentsOutputSchema },
  addComment: { input: addCommentToolInputSchema, output: addCommentToolOutputSchema },
  replyToComment: { input: replyToCommentToolInputSchema, output: replyToCommentToolOutputSchema },
  resolveComment: { input: resolveCommentToolInputSchema, output: resolveCommentToolOutputSchema },
} as const satisfies { [K in CommentToolName]: { input: z.ZodType; output: z.ZodType } };
