import { log } from "@coauthor/agent-workflow";
import { chatAnswer, chatText } from "@coauthor/agent-workflow/server";
import { CONTENT_TOO_SLOW, chatRequestSchema } from "@coauthor/types";
import { acceptRunRequest } from "@/server/agent/run-request";
import { readDocumentMarkdown } from "@/server/collab/document-content";
import { DocumentDamagedError } from "@/server/collab/document-health";
import { appendMessages } from "@/server/conversation";
import { DocumentWorkTooSlow } from "@/server/document-work/worker-pool";
import { apiError } from "@/server/http/errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Chat mode: a plain streamed answer with the document as context. The model
 * gets no tools at all, so it cannot change the document (by construction).
 */
export async function POST(request: Request): Promise<Response> {
  const accepted = await acceptRunRequest(request, chatRequestSchema, "chat");
  if (!accepted.ok) return accepted.response;
  const { input, modelId, userId } = accepted;
  const asked = new Date();
  const remember = (answer: string) =>
    appendMessages(input.documentId, userId, [
      { role: "user", mode: "chat", content: input.prompt, at: asked },
      { role: "assistant", mode: "chat", content: answer },
    ]).catch((error: unknown) =>
      log.error("chat: could not store the conversation", { documentId: input.documentId, error }),
    );

  // Chat reads the document (the access check above never loads its content).
  let markdown: string;
  try {
    markdown = (await readDocumentMarkdown(input.documentId)) ?? "";
  } catch (error) {
    if (error instanceof DocumentDamagedError) return apiError(409, "document_damaged", error.message);
    if (error instanceof DocumentWorkTooSlow)
      return apiError(
        413,
        CONTENT_TOO_SLOW,
        `reading this document took longer than ${error.budgetMs / 1_000} s`,
      );
    throw error;
  }
  const result = chatAnswer({
    modelId,
    markdown,
    selection: input.selection?.text || undefined,
    messages: input.messages,
    prompt: input.prompt,
    signal: request.signal,
    // The exchange is stored once the answer is complete (a stopped answer is not kept).
    onFinish: (text) => remember(text),
  });
  const text = chatText(result, (failure) =>
    log.error("chat: model failed", {
      documentId: input.documentId,
      model: modelId,
      code: failure.code,
      detail: failure.detail,
    }),
  );
  return new Response(text.pipeThrough(new TextEncoderStream()), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
    },
  });
}
