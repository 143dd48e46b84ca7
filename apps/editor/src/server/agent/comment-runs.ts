import { log } from "@coauthor/agent-workflow";
import { readThread } from "@coauthor/tools";
import { type CommentThread, MAX_PROMPT_CHARS } from "@coauthor/types";
import { editLiveDocument } from "@/server/collab/live-edit";
import { startServerRun } from "./run-start";

// Asking the agent from a comment (issue #38, point 5): a comment that mentions `@Coauthor` starts
// a run on behalf of its author — their rights, rate limit and caps — that the server executes (no
// tab of theirs needs to be open) in Suggest mode, so a change it proposes is a suggestion the
// writers review; when the run ends, its answer is posted in the thread as "Coauthor · for
// <author>" (thread-answers.ts). The run shows in History like any other.

/** A comment's words with the agent's mention taken out: what was asked. */
function askedIn(body: string): string {
  return body.replace(/(^|[^\p{L}\p{N}_])@coauthor\b[,:]?\s*/giu, "$1").trim();
}

/**
 * The run's prompt: what the thread's last comment asks, first (a model, and the offline model's
 * commands, read the request at the top), then the thread it was asked in.
 */
export function threadPrompt(thread: CommentThread): string {
  const last = thread.comments.at(-1);
  const conversation = thread.comments
    .map((comment) =>
      comment.author.kind === "agent"
        ? `Coauthor (for ${comment.author.name}): ${comment.body}`
        : `${comment.author.name}: ${comment.body}`,
    )
    .join("\n");
  const prompt = [
    askedIn(last?.body ?? "") || "Answer this comment thread.",
    `(Asked in a comment thread on the text "${thread.quote}". The thread so far:\n${conversation}\n` +
      "A change you make to the document lands as a suggestion for the writers to review; your answer is posted in the thread.)",
  ].join("\n\n");
  return prompt.slice(0, MAX_PROMPT_CHARS);
}

/** Starts the run a `@Coauthor` comment in `threadId` asks for (not awaited by the comment: logged). */
export function askAgentFromThread(ask: { userId: string; documentId: string; threadId: string }): void {
  void (async () => {
    const thread = await editLiveDocument(ask.documentId, ask.userId, (copy) =>
      readThread(copy.doc, ask.threadId),
    );
    if (thread === null) return;
    const started = await startServerRun({
      userId: ask.userId,
      documentId: ask.documentId,
      prompt: threadPrompt(thread),
      editMode: "suggest",
      threadId: ask.threadId,
    });
    if (!started.ok) log.warn("a @Coauthor comment started no run", { ...ask, reason: started.reason });
  })().catch((error: unknown) => log.error("a @Coauthor comment could not start its run", { ...ask, error }));
}
