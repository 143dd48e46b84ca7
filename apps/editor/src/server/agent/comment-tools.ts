import { createHash } from "node:crypto";
import type { ServerToolCall } from "@coauthor/agent-workflow/server";
import { $anchoredThreadIds, addReply, readThreads, setThreadStatus } from "@coauthor/tools";
import { type CommentAuthor, commentToolSchemas, isCommentTool } from "@coauthor/types";
import type { ToolFailure } from "@coauthor/types/tools";
import { TRPCError } from "@trpc/server";
import { roleAllows } from "@/server/auth/roles";
import { editLiveDocument } from "@/server/collab/live-edit";
import { authorOf, changeThread, checkMentions, startThread } from "@/server/comments";
import { findDocumentAccess } from "@/server/documents";
import { findRun } from "@/server/runs";

// The agent's comment tools, run by the server for a run (the workflow hands them over instead of
// sending them to a tab): the agent comments as "Coauthor · for <writer>", with the writer's
// rights on the document at the time of the call.

function failure(code: string, message: string): ToolFailure {
  return { ok: false, code, message };
}

/** An id derived from the run and call: the same call run again (after a restart) makes nothing twice. */
function callDerivedId(runId: string, toolCallId: string): string {
  return `a${createHash("sha256").update(`${runId}\u0000${toolCallId}`).digest("hex").slice(0, 31)}`;
}

/** Who the agent comments as in `runId`, and on which document; a failure when it may not. */
async function agentOf(
  runId: string,
): Promise<{ documentId: string; author: CommentAuthor; canEdit: boolean } | ToolFailure> {
  const run = await findRun(runId);
  if (run === null) return failure("internal-error", "this run is not stored");
  const access = await findDocumentAccess(run.userId, run.documentId);
  if (access === null || !roleAllows(access.role, "comment")) {
    return failure("invalid-input", "the writer of this run may no longer comment on this document");
  }
  const writer = await authorOf(run.userId);
  return {
    documentId: run.documentId,
    author: { kind: "agent", userId: run.userId, name: writer.name, runId },
    canEdit: roleAllows(access.role, "edit"),
  };
}

/** Runs one comment tool call; every refusal is a failure the model can read, never a throw. */
export async function runCommentTool(call: ServerToolCall): Promise<unknown> {
  if (!isCommentTool(call.toolName))
    return failure("unknown-tool", `no server tool named "${call.toolName}"`);
  const agent = await agentOf(call.runId);
  if ("ok" in agent) return agent;
  try {
    return await runAs(agent, call);
  } catch (error) {
    if (error instanceof TRPCError)
      return failure(error.code === "NOT_FOUND" ? "not-found" : "invalid-input", error.message);
    throw error;
  }
}

async function runAs(
  agent: { documentId: string; author: CommentAuthor; canEdit: boolean },
  call: ServerToolCall,
): Promise<unknown> {
  const { documentId, author } = agent;
  const schema = commentToolSchemas[call.toolName as keyof typeof commentToolSchemas].input;
  const parsed = schema.safeParse(call.input);
  if (!parsed.success)
    return failure("invalid-input", parsed.error.issues.map((issue) => issue.message).join("; "));
  const input = parsed.data as Record<string, unknown>;
  const id = callDerivedId(call.runId, call.toolCallId);
  const acting = author.userId;

  switch (call.toolName) {
    case "listComments": {
      const status = input.status as "open" | "resolved" | "all";
      const threads = await editLiveDocument(documentId, acting, (copy) => {
        const onText = new Set(copy.editor.read(() => $anchoredThreadIds()));
        return readThreads(copy.doc)
          .filter((thread) => status === "all" || thread.status === status)
          .map((thread) => ({
            threadId: thread.id,
            quote: thread.quote,
            status: thread.status,
            onText: onText.has(thread.id),
            comments: thread.comments.map((comment) => ({
              author:
                comment.author.kind === "agent" ? `Coauthor for ${comment.author.name}` : comment.author.name,
              text: comment.body,
            })),
          }));
      });
      return { ok: true, threads };
    }
    case "addComment": {
      const { blockId, quote, comment } = input as { blockId: string; quote: string; comment: string };
      await checkMentions(documentId, comment);
      const started = await startThread({
        documentId,
        actingUserId: acting,
        threadId: id,
        place: { blockId },
        quote,
        first: { id: `${id}c`, author, body: comment, at: Date.now() },
      });
      if (started === "text-changed") {
        return failure("not-found", `block ${blockId} does not hold the text "${quote}" (quote it exactly)`);
      }
      return { ok: true, threadId: id };
    }
    case "replyToComment": {
      const { threadId, comment } = input as { threadId: string; comment: string };
      await checkMentions(documentId, comment);
      await changeThread(documentId, { userId: acting, role: "commenter" }, threadId, (thread, copy) => {
        if (thread.comments.some((existing) => existing.id === id)) return;
        addReply(copy.doc, threadId, { id, author, body: comment, at: Date.now() });
      });
      return { ok: true, commentId: id };
    }
    case "resolveComment": {
      const { threadId } = input as { threadId: string };
      await changeThread(documentId, { userId: acting, role: "commenter" }, threadId, (thread, copy) => {
        const starter = thread.comments[0]?.author;
        const agentStarted = starter?.kind === "agent" && starter.userId === author.userId;
        if (!agentStarted && !agent.canEdit) {
          throw new TRPCError({ code: "FORBIDDEN", message: "you may resolve only threads you started" });
        }
        setThreadStatus(copy.doc, threadId, "resolved", `Coauthor for ${author.name}`);
      });
      return { ok: true };
    }
  }
  return failure("unknown-tool", `no server tool named "${call.toolName}"`);
}
