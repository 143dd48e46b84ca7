import { CoauthorClient } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";

interface StoredMessage {
  role: "user" | "assistant";
  mode: "agent" | "chat";
  content: string;
  runId: string | null;
}
interface RunRow {
  id: string;
  prompt: string;
  model: string;
  status: string;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  startedAt: string;
  durationMs: number | null;
}

/** Polls `read` until `done` holds (the run's end is recorded just after its stream ends). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 50 && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

test("every run is listed per document with its stats, and the conversation is stored on the server", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument("First paragraph.");
  const run = await client.runAgent(documentId, "count to 2");
  expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done" });

  const runs = await eventually(
    () => client.trpc<RunRow[]>("assistant.runs", { documentId }, "query"),
    (rows) => rows[0]?.toolCalls === 2,
  );
  expect(runs).toHaveLength(1);
  expect(runs[0]).toMatchObject({ id: run.runId, prompt: "count to 2", model: "offline", toolCalls: 2 });
  expect(runs[0]?.status).toBe("done");
  expect((runs[0]?.inputTokens ?? 0) + (runs[0]?.outputTokens ?? 0)).toBeGreaterThan(0);
  expect(runs[0]?.durationMs).toBeGreaterThanOrEqual(0);

  const chat = await client.fetch("/api/llm/stream", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ documentId, prompt: "How long is it?", messages: [] }),
  });
  expect(chat.status).toBe(200);
  const answer = await chat.text();

  const conversation = await eventually(
    () => client.trpc<StoredMessage[]>("assistant.conversation", { documentId }, "query"),
    (messages) => messages.length >= 4,
  );
  expect(conversation.map((m) => [m.role, m.mode, m.content])).toEqual([
    ["user", "agent", "count to 2"],
    ["assistant", "agent", expect.stringContaining("Counted to 2.")],
    ["user", "chat", "How long is it?"],
    ["assistant", "chat", answer],
  ]);
  expect(conversation[0]?.runId).toBe(run.runId);

  // Another user sees neither the runs nor the conversation.
  const stranger = await new CoauthorClient(baseURL ?? "").signIn();
  const refused = await stranger.fetch(
    `/api/trpc/assistant.runs?input=${encodeURIComponent(JSON.stringify({ documentId }))}`,
  );
  expect([403, 404]).toContain(refused.status);
});
