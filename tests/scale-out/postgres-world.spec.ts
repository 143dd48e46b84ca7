import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import { isTerminalEvent, type RunEvent } from "@coauthor/types";
import postgres from "postgres";
import type { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { forgedDelivery } from "../lib/engine-delivery.ts";
import { type Instances, startInstances, stepHost } from "../lib/instances.ts";
import { RunStream } from "../lib/run-stream.ts";
import { expect, test } from "../lib/test.ts";

// Two instances on Workflow DevKit's Postgres world (the scale-out setup): each instance's job
// runner takes deliveries from the shared database and POSTs them to its own engine routes over
// loopback HTTP, so these are the deliveries that must carry the engine's credential. `npm start`
// prepares the world's tables itself (no separate step), both instances starting at once.
let instances: Instances | undefined;
let servers: AppServer[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  instances = await startInstances({ label: "world", postgresWorld: true });
  servers = instances.servers;
});

test.afterAll(async () => {
  await instances?.dispose();
});

/** The instance whose step asked for this tool call. */
const stepInstance = (runId: string, toolCallId: string) => stepHost(servers, runId, toolCallId);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

test("a run's engine deliveries arrive over HTTP with the engine's credential; forged ones get 401 on every instance", async () => {
  const [first, second] = servers as [AppServer, AppServer];
  const client = await new CoauthorClient(first.url).signIn();
  const documentId = await client.createDocument();
  const forged: number[] = [];
  const run = await client.runAgent(documentId, "count to 3", {
    onEvent: async (event, { runId }) => {
      if (event.type !== "tool-call" || forged.length > 0) return undefined;
      for (const server of [first, second]) {
        for (const route of ["flow", "step"]) {
          const response = await fetch(
            `${server.url}/.well-known/workflow/v1/${route}`,
            forgedDelivery(runId),
          );
          forged.push(response.status);
          await response.arrayBuffer();
        }
      }
      return undefined;
    },
  });
  expect(forged).toEqual([401, 401, 401, 401]);
  // Every step of the run went through the job queue and the engine routes, and it finished its work.
  expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  const results = run.events.filter((event) => event.type === "tool-result");
  expect(results.map((event) => event.ok)).toEqual([true, true, true]);
  // The run lived in the Postgres world (not a local one) and completes there.
  const sql = postgres(instances?.databaseUrl ?? "", { max: 1, onnotice: () => undefined });
  const worldStatus = async () =>
    (await sql<{ status: string }[]>`select status from workflow.workflow_runs where id = ${run.runId}`).map(
      (row) => row.status,
    );
  await expect.poll(worldStatus).toEqual(["completed"]);
  await sql.end();
});

test("a run started on one instance with results posted to the other finishes, and no hand-over waits for the store's read", async () => {
  const [first, second] = servers as [AppServer, AppServer];
  const onFirst = await new CoauthorClient(first.url).signIn();
  const onSecond = await new CoauthorClient(second.url).signInWith({
    email: onFirst.email,
    password: onFirst.password,
  });
  const clients = [onFirst, onSecond];
  const documentId = await onFirst.createDocument();
  const editor = createDocumentEditor();
  const stream = await RunStream.start(onFirst, documentId, "count to 12");
  expect(stream.status).toBe(200);
  // Alternately to the instance running the step and to the other one, to compare the two.
  const trips = { same: [] as number[], cross: [] as number[] };
  const statuses: number[] = [];
  const events: RunEvent[] = [];
  for (let event = await stream.next(); event; event = await stream.next()) {
    events.push(event);
    if (isTerminalEvent(event)) break;
    if (event.type !== "tool-call") continue;
    const result = await runEditorTool(editor, event.toolName, event.input);
    const host = await stepInstance(stream.runId, event.toolCallId);
    const cross = statuses.length % 2 === 0;
    const poster = clients[cross ? 1 - host : host] as CoauthorClient;
    const posted = performance.now();
    const response = await poster.callback({
      hookToken: event.hookToken,
      toolCallId: event.toolCallId,
      result,
    });
    statuses.push(response.status);
    await response.arrayBuffer();
    const call = event.toolCallId;
    events.push(
      ...(await stream.readUntil((next) => next.type === "tool-result" && next.toolCallId === call)),
    );
    (cross ? trips.cross : trips.same).push(performance.now() - posted);
  }
  expect(events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  expect(statuses).toEqual(Array(12).fill(204));
  const results = events.filter((event) => event.type === "tool-result");
  expect(results.map((event) => event.type === "tool-result" && event.ok)).toEqual(Array(12).fill(true));
  const summary = (values: number[]) =>
    `median ${median(values).toFixed(1)} of ${values.map((value) => value.toFixed(0)).join(", ")}`;
  test
    .info()
    .annotations.push(
      { type: "round trip, result posted to the step's instance (ms)", description: summary(trips.same) },
      { type: "round trip, result posted to the other instance (ms)", description: summary(trips.cross) },
    );
  // The store is read every 5 s as a safety net only: each result arrived by its signal (a lost
  // one would wait for that read; the bound leaves room for a busy machine).
  expect(trips.cross).toHaveLength(6);
  for (const trip of trips.cross) expect(trip).toBeLessThan(2_000);
});

test("Stop posted to another instance than the run's step ends the run's stream within a second of its answer", async () => {
  const [first, second] = servers as [AppServer, AppServer];
  const onFirst = await new CoauthorClient(first.url).signIn();
  const onSecond = await new CoauthorClient(second.url).signInWith({
    email: onFirst.email,
    password: onFirst.password,
  });
  const documentId = await onFirst.createDocument();
  const stream = await RunStream.start(onFirst, documentId, "count to 20");
  const call = (await stream.readUntil((event) => event.type === "tool-call")).at(-1);
  if (call?.type !== "tool-call") throw new Error("the run asked for no tool");
  // The step waits for this result; the Stop goes to the other instance.
  const other = [onFirst, onSecond][
    1 - (await stepInstance(stream.runId, call.toolCallId))
  ] as CoauthorClient;
  const response = await other.cancel(stream.runId);
  expect(response.status).toBeLessThan(300);
  await response.arrayBuffer();
  const answered = performance.now();
  const rest = await stream.readUntil(isTerminalEvent);
  const ended = performance.now() - answered;
  expect(rest.at(-1)).toMatchObject({ type: "finish", status: "cancelled" });
  test.info().annotations.push({ type: "Stop to stream end (ms)", description: ended.toFixed(1) });
  expect(ended).toBeLessThan(1_000);
});
