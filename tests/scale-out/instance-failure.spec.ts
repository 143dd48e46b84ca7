import { createDocumentEditor } from "@coauthor/tools";
import { isTerminalEvent, type RunEvent } from "@coauthor/types";
import type { LexicalEditor } from "lexical";
import postgres from "postgres";
import type { AppServer } from "../lib/app-server.ts";
import type { CoauthorClient } from "../lib/coauthor-client.ts";
import { type CrossInstanceRun, followAcrossInstances } from "../lib/cross-instance-run.ts";
import { type Instances, oneUserOnEach, startInstances, stepHost } from "../lib/instances.ts";
import { blockTexts, idsOf, RunStream, range } from "../lib/run-stream.ts";
import { expect, test } from "../lib/test.ts";

// Instances die under runs in flight (two instances on the Postgres world, each test its own
// database). A run's turns step holds an owner lease renewed every third of AGENT_STEP_LEASE_MS;
// when its instance dies the lease expires, the survivor's sweep frees the dead worker's job, the
// world delivers the step again and it resumes from its checkpoint. The browser (a headless
// client here) reattaches with Last-Event-ID on whichever instance answers.
const ENV = {
  AGENT_STEP_LEASE_MS: "2000",
  AGENT_TOOL_DEADLINE_MS: "60000",
  MAX_CONCURRENT_RUNS_PER_USER: "5",
  MAX_CONCURRENT_RUNS_PER_DOCUMENT: "2",
};

const SWEPT = "unlocked the jobs of dead job workers";

/** The whole run, replayed from its first event on `client`: each event once, in order. */
async function replay(client: CoauthorClient, runId: string): Promise<RunEvent[]> {
  return (await RunStream.attach(client, runId, 0)).readUntil(isTerminalEvent);
}

/** Every tool ran once, its call and result each stored once, the events without gap or repeat. */
async function expectEachToolOnce(client: CoauthorClient, run: CrossInstanceRun, count: number) {
  expect(run.seen.at(-1)).toMatchObject({ type: "finish", status: "done" });
  expect(idsOf(run.seen)).toEqual(range(run.seen.length));
  expect(run.executed).toHaveLength(count);
  const stored = await replay(client, run.runId);
  expect(idsOf(stored)).toEqual(range(stored.length));
  expect(stored.flatMap((e) => (e.type === "tool-call" ? [e.toolCallId] : []))).toEqual(run.executed);
  expect(stored.flatMap((e) => (e.type === "tool-result" && e.ok ? [e.toolCallId] : []))).toEqual(
    run.executed,
  );
  // What the client saw live is what was stored (a call announced again after the takeover is
  // the same event, stamped with the time of its second writing).
  const unstamped = (events: RunEvent[]) => events.map(({ at: _at, ...event }) => event);
  expect(unstamped(stored)).toEqual(unstamped(run.seen));
}

const counted = (editor: LexicalEditor) => blockTexts(editor).filter((text) => text !== "");

/**
 * Runs "count to `count`" on the one instance of `instances`, following it for up to `timeoutMs`:
 * it ended with every tool once and every number in the document. Returns the instance.
 */
async function countOnTheInstance(
  instances: Instances,
  count: number,
  timeoutMs: number,
): Promise<AppServer> {
  const server = instances.servers[0] as AppServer;
  const clients = await oneUserOnEach([server]);
  const client = clients[0] as CoauthorClient;
  const documentId = await client.createDocument();
  const editor = createDocumentEditor();
  const stream = await RunStream.start(client, documentId, `count to ${count}`);
  expect(stream.status).toBe(200);
  const run = await followAcrossInstances(clients, stream, editor, { timeoutMs });
  await expectEachToolOnce(client, run, count);
  expect(counted(editor)).toEqual(range(count).map((i) => String(i + 1)));
  return server;
}

test("an instance killed with SIGKILL while a tool call waits: the run goes on on the other, every tool once, every event once", async () => {
  const instances = await startInstances({ label: "sigkill", postgresWorld: true, env: ENV });
  try {
    const servers = instances.servers;
    const clients = await oneUserOnEach(servers);
    const documentId = await (clients[0] as CoauthorClient).createDocument();
    const editor = createDocumentEditor();
    const stream = await RunStream.start(clients[0] as CoauthorClient, documentId, "count to 4");
    expect(stream.status).toBe(200);
    let victim: AppServer | undefined;
    let killedAt = 0;
    let resumedAfter = 0;
    let calls = 0;
    const run = await followAcrossInstances(clients, stream, editor, {
      onEvent: async (event) => {
        if (victim && !resumedAfter && event.type === "tool-result")
          resumedAfter = performance.now() - killedAt;
        // The second tool call waits for the browser: its step's instance dies before the answer.
        if (victim || event.type !== "tool-call" || ++calls < 2) return;
        victim = servers[await stepHost(servers, stream.runId, event.toolCallId)] as AppServer;
        await victim.kill("SIGKILL");
        killedAt = performance.now();
      },
    });
    expect(victim).toBeDefined();
    const survivor = servers.find((server) => server !== victim) as AppServer;
    const survivorClient = clients[servers.indexOf(survivor)] as CoauthorClient;
    await expectEachToolOnce(survivorClient, run, 4);
    expect(counted(editor)).toEqual(["1", "2", "3", "4"]);
    // The survivor freed the dead instance's job (the lease had expired), and took the step over.
    expect(survivor.log).toContain(SWEPT);
    test.info().annotations.push({
      type: "SIGKILL to the waiting call's result on the survivor (ms)",
      description: resumedAfter.toFixed(0),
    });
  } finally {
    await instances.dispose();
  }
});

/** A promise the test opens when it is ready (runs hold their next tool call until then). */
function gate() {
  const opener: { open?: () => void } = {};
  const opened = new Promise<void>((resolve) => {
    opener.open = resolve;
  });
  return { open: () => opener.open?.(), opened };
}

test("a rolling restart of both instances, one at a time, with runs in flight loses nothing: each run finishes, every tool once", async () => {
  const instances = await startInstances({ label: "rolling", postgresWorld: true, env: ENV });
  try {
    const servers = instances.servers as [AppServer, AppServer];
    const clients = await oneUserOnEach(servers);
    // Each restart happens while every run waits for the browser: a run holds its 3rd tool call
    // until the first instance is back, and its 6th until the second one is.
    const restarted = [gate(), gate()] as const;
    const holdAt = [3, 6];
    const runs = await Promise.all(
      [0, 1, 2].map(async (index) => {
        const client = clients[index % clients.length] as CoauthorClient;
        const documentId = await client.createDocument();
        const editor = createDocumentEditor();
        const stream = await RunStream.start(client, documentId, "count to 8");
        expect(stream.status).toBe(200);
        const calls: string[] = [];
        const done = followAcrossInstances(clients, stream, editor, {
          onEvent: async (event) => {
            if (event.type !== "tool-call") return;
            calls.push(event.toolCallId);
            const phase = holdAt.indexOf(calls.length);
            if (phase >= 0) await restarted[phase]?.opened;
          },
          timeoutMs: 160_000,
        });
        return { editor, calls, done };
      }),
    );
    // One instance at a time, as a deploy does: stopped (SIGTERM) and started again.
    for (const [phase, server] of servers.entries()) {
      const held = holdAt[phase] ?? 0;
      await expect.poll(() => runs.every((run) => run.calls.length >= held), { timeout: 60_000 }).toBe(true);
      await server.kill("SIGTERM");
      await server.start();
      restarted[phase]?.open();
    }
    const finished = await Promise.all(runs.map((run) => run.done));
    for (const [index, run] of finished.entries()) {
      await expectEachToolOnce(clients[0] as CoauthorClient, run, 8);
      expect(counted((runs[index] as (typeof runs)[number]).editor)).toEqual([
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
      ]);
    }
    test.info().annotations.push({
      type: "reattachments per run",
      description: finished.map((run) => run.reattached).join(", "),
    });
  } finally {
    await instances.dispose();
  }
});

test("the instance executing a background run is killed with SIGKILL: the run ends once on the other, every call's edit once", async () => {
  const instances = await startInstances({ label: "background_kill", postgresWorld: true, env: ENV });
  try {
    const servers = instances.servers;
    const clients = await oneUserOnEach(servers);
    const documentId = await (clients[0] as CoauthorClient).createDocument();
    // Nobody follows it with a tab: the server executes every call, on the instance of the step.
    const stream = await RunStream.start(clients[0] as CoauthorClient, documentId, "count to 6", {
      background: true,
    });
    expect(stream.status).toBe(200);
    let calls = 0;
    const announced = await stream.readUntil((event) => event.type === "tool-call" && ++calls === 2);
    const second = announced.at(-1);
    if (second?.type !== "tool-call") throw new Error("the run asked for no second tool call");
    const victim = servers[await stepHost(servers, stream.runId, second.toolCallId)] as AppServer;
    await victim.kill("SIGKILL");
    stream.drop();
    const survivor = servers.find((server) => server !== victim) as AppServer;
    const survivorClient = clients[servers.indexOf(survivor)] as CoauthorClient;

    const stored = await replay(survivorClient, stream.runId);
    expect(stored.at(-1)).toMatchObject({ type: "finish", status: "done" });
    expect(idsOf(stored)).toEqual(range(stored.length));
    const called = stored.flatMap((event) => (event.type === "tool-call" ? [event.toolCallId] : []));
    expect(called).toHaveLength(6);
    expect(new Set(called).size).toBe(6);
    expect(
      stored.flatMap((event) => (event.type === "tool-result" && event.ok ? [event.toolCallId] : [])),
    ).toEqual(called);
    // Every call's edit once in the live document, whichever instance ran it.
    const markdown = await survivorClient.documentMarkdown(documentId);
    expect(markdown.split("\n\n").filter((block) => block !== "")).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(survivor.log).toContain(SWEPT);
    expect(survivor.log).toContain("server executor: ran a call no tab took");
  } finally {
    await instances.dispose();
  }
});

test("a job worker that cannot release its job (the database refuses) is replaced, its job freed: the run ends, every tool once", async () => {
  // graphile-worker 0.16 lets such a worker exit for good, the job still locked by it; here the
  // database refuses the first job completion (a trigger; a sequence counts across rollbacks).
  const instances = await startInstances({
    label: "worker_lost",
    postgresWorld: true,
    env: { ...ENV, WORKFLOW_POSTGRES_WORKER_CONCURRENCY: "4" },
    count: 1,
  });
  const sql = postgres(instances.databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    await sql.unsafe(`
      create sequence job_completions;
      create function refuse_first_completion() returns trigger language plpgsql as $$
      begin
        if nextval('job_completions') = 1 then raise exception 'the test refuses this completion'; end if;
        return old;
      end $$;
      create trigger refuse_first_completion before delete on graphile_worker._private_jobs
        for each row execute function refuse_first_completion();`);
    const server = await countOnTheInstance(instances, 3, 90_000);
    expect(server.log).toContain("committing seppuku");
    // The job it held is freed once it has been locked longer than an instance's row lives (15 s)
    // by a worker no instance names, and is done: no job is left locked.
    await expect.poll(() => server.log.includes(SWEPT), { timeout: 40_000 }).toBe(true);
    await expect
      .poll(
        async () =>
          (
            await sql<
              { n: number }[]
            >`select count(*)::int as n from graphile_worker._private_jobs where locked_by is not null`
          )[0]?.n,
      )
      .toBe(0);
    // Four live workers again: the one that exited was replaced.
    await expect
      .poll(
        async () =>
          (await sql<{ workers: string[] }[]>`select workers from instance_job_slots`)[0]?.workers.length,
      )
      .toBe(4);
  } finally {
    await sql.end();
    await instances.dispose();
  }
});

test("a delivery that fails three times (the database refuses the run's start) is delivered again: the run ends, every tool once", async () => {
  // graphile-worker retires a job for good once it has been delivered `maxAttempts` times, and
  // counts every delivery, one taken by a worker that died too; the world's cap of 3 left runs
  // running forever after a few faults. Here the database refuses the run's start three times (a
  // trigger; a sequence counts across the rollbacks): the fourth delivery, after graphile's
  // backoff (e¹ + e² + e³ ≈ 30 s), starts it.
  const instances = await startInstances({
    label: "delivery_retries",
    postgresWorld: true,
    env: ENV,
    count: 1,
  });
  const sql = postgres(instances.databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    await sql.unsafe(`
      create sequence run_starts;
      create function refuse_three_starts() returns trigger language plpgsql as $$
      begin
        if old.status = 'pending' and new.status = 'running' and nextval('run_starts') <= 3 then
          raise exception 'the test refuses this run''s start';
        end if;
        return new;
      end $$;
      create trigger refuse_three_starts before update on workflow.workflow_runs
        for each row execute function refuse_three_starts();`);
    await countOnTheInstance(instances, 2, 120_000);
    expect((await sql<{ n: string }[]>`select last_value::text as n from run_starts`)[0]?.n).toBe("4");
  } finally {
    await sql.end();
    await instances.dispose();
  }
});
