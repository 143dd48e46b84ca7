import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import { isTerminalEvent, type RunEvent } from "@coauthor/types";
import type { CoauthorClient } from "../lib/coauthor-client.ts";
import { type Instances, oneUserOnEach, startInstances } from "../lib/instances.ts";
import { idsOf, RunStream, range } from "../lib/run-stream.ts";
import { expect, test } from "../lib/test.ts";

// A browser behind a load balancer: its stream to instance A drops, it reattaches on B with
// Last-Event-ID and carries on there, then Stop goes to B. Two instances on the Postgres world,
// a database of its own.
let instances: Instances | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  instances = await startInstances({ label: "reattach", postgresWorld: true });
});

test.afterAll(async () => {
  await instances?.dispose();
});

/** Reads `stream` until `calls` tool calls were answered (posted through `poster`); returns what it read. */
async function answer(stream: RunStream, poster: CoauthorClient, calls: number): Promise<RunEvent[]> {
  const editor = createDocumentEditor();
  const read: RunEvent[] = [];
  let answered = 0;
  while (answered < calls) {
    const event = await stream.next();
    if (!event || isTerminalEvent(event)) throw new Error(`the run ended early: ${JSON.stringify(event)}`);
    read.push(event);
    if (event.type !== "tool-call") continue;
    const response = await poster.callback({
      hookToken: event.hookToken,
      toolCallId: event.toolCallId,
      result: await runEditorTool(editor, event.toolName, event.input),
    });
    expect(response.status).toBe(204);
    await response.arrayBuffer();
    answered++;
  }
  return read;
}

test("a stream dropped on A is reattached on B with Last-Event-ID (no gap, no repeat), and Stop posted to B ends the run", async () => {
  const [onA, onB] = (await oneUserOnEach(instances?.servers ?? [])) as [CoauthorClient, CoauthorClient];
  const documentId = await onA.createDocument();
  const first = await RunStream.start(onA, documentId, "count to 20");
  expect(first.status).toBe(200);
  const beforeDrop = await answer(first, onA, 2);
  first.drop();

  const lastId = beforeDrop.at(-1)?.id;
  const second = await RunStream.attachAfter(onB, first.runId, lastId);
  expect(second.status).toBe(200);
  const afterDrop = await answer(second, onB, 2);
  expect(afterDrop[0]?.id).toBe((lastId ?? -1) + 1);

  const stop = await onB.cancel(first.runId);
  expect(stop.status).toBeLessThan(300);
  await stop.arrayBuffer();
  const answered = performance.now();
  const rest = await second.readUntil(isTerminalEvent);
  const ended = performance.now() - answered;
  expect(rest.at(-1)).toMatchObject({ type: "finish", status: "cancelled" });
  test
    .info()
    .annotations.push({ type: "Stop on B to the run's last event (ms)", description: ended.toFixed(1) });
  // A generous bound (the target is a second, measured above): the Stop came by its signal, not the
  // store's 5 s safety read.
  expect(ended).toBeLessThan(5_000);

  // What the browser saw across both instances is the run's whole log, once each, in order.
  const seen = [...beforeDrop, ...afterDrop, ...rest];
  expect(idsOf(seen)).toEqual(range(seen.length));
  const stored = await (await RunStream.attach(onA, first.runId, 0)).readUntil(isTerminalEvent);
  expect(idsOf(stored)).toEqual(idsOf(seen));
  expect(stored.map((event) => event.type)).toEqual(seen.map((event) => event.type));
});
