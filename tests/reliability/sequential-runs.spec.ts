import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { RunStream } from "../lib/run-stream.ts";
import { expect, test } from "../lib/test.ts";

// A writer sending prompt after prompt on one document, each the moment the run before sent its
// `finish` frame (before the server has recorded that run's end), is never refused: a new prompt
// supersedes the writer's own run there, it does not count against their caps. Bounded: 300 runs
// on a server with caps of one run (a run not yet recorded as ended would fill them) and its
// runs-per-minute limit out of the way.
const RUNS = 300;
const server = new AppServer({
  MAX_CONCURRENT_RUNS_PER_USER: "1",
  MAX_CONCURRENT_RUNS_PER_DOCUMENT: "1",
  RATE_LIMIT_RUNS_PER_MINUTE: "100000",
  OFFLINE_MODEL_WORD_DELAY_MS: "0",
});

test.beforeAll(async () => {
  test.setTimeout(90_000);
  await server.start();
});
test.afterAll(() => server.dispose());

/** Starts a run and answers its tool calls until its `finish` frame; returns the start's status and how it finished. */
async function promptUntilFinish(client: CoauthorClient, documentId: string, prompt: string) {
  const stream = await RunStream.start(client, documentId, prompt);
  if (stream.status !== 200) return { status: stream.status, finish: undefined };
  const editor = createDocumentEditor();
  for (let event = await stream.next(); event; event = await stream.next()) {
    if (event.type === "finish") {
      // The next prompt goes out now, as a writer typing on would send it.
      stream.drop();
      return { status: stream.status, finish: event.status };
    }
    if (event.type === "tool-call") {
      const result = await runEditorTool(editor, event.toolName, event.input);
      const posted = await client.callback({
        hookToken: event.hookToken,
        toolCallId: event.toolCallId,
        result,
      });
      await posted.arrayBuffer();
    }
  }
  return { status: stream.status, finish: "no finish frame" };
}

test(`${RUNS} short runs one right after another's finish frame: none is refused`, async () => {
  test.setTimeout(240_000);
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument();
  const refused: { run: number; status: number }[] = [];
  const finishes = new Map<string, number>();
  for (let run = 0; run < RUNS; run++) {
    const outcome = await promptUntilFinish(client, documentId, `append "${run}"`);
    if (outcome.status !== 200) refused.push({ run, status: outcome.status });
    const finish = outcome.finish ?? "refused";
    finishes.set(finish, (finishes.get(finish) ?? 0) + 1);
  }
  expect(refused).toEqual([]);
  expect(Object.fromEntries(finishes)).toEqual({ done: RUNS });
  // History (the latest runs): every run ended, none is left counted as running.
  const runningInHistory = async () =>
    (await client.trpc<{ status: string }[]>("assistant.runs", { documentId }, "query")).filter(
      (row) => row.status === "running",
    ).length;
  await expect.poll(runningInHistory).toBe(0);
});
