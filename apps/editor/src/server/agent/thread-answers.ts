import { createHash } from "node:crypto";
import { addReply, readThread } from "@coauthor/tools";
import { MAX_COMMENT_CHARS } from "@coauthor/types";
import { editLiveDocument } from "@/server/collab/live-edit";
import { authorOf } from "@/server/comments";
import { findRun } from "@/server/runs";

// The answer of a run asked from a comment (comment-runs.ts): posted in its thread when the run
// ends, by whichever instance records the end.

/** The id of a run's answer in its thread: derived from the run, so it is posted once whoever records the end. */
function answerId(runId: string): string {
  return `a${createHash("sha256").update(`${runId}\u0000answer`).digest("hex").slice(0, 31)}`;
}

/**
 * Posts an ended run's answer in the thread it was asked in (nothing for a run asked elsewhere, or
 * when the thread is gone), as "Coauthor · for <writer>", once.
 */
export async function answerInThread(runId: string, answer: string): Promise<void> {
  const run = await findRun(runId);
  const threadId = run?.threadId;
  if (!run || !threadId) return;
  const writer = await authorOf(run.userId);
  const id = answerId(runId);
  const body = (answer.trim() || "Done.").slice(0, MAX_COMMENT_CHARS);
  await editLiveDocument(run.documentId, run.userId, (copy) => {
    const thread = readThread(copy.doc, threadId);
    if (thread === null || thread.comments.some((comment) => comment.id === id)) return;
    addReply(copy.doc, threadId, {
      id,
      author: { kind: "agent", userId: run.userId, name: writer.name, runId },
      body,
      at: Date.now(),
    });
  });
}
