import type { RunEvent } from "@coauthor/types";
import { createRunEventParser } from "@coauthor/types/sse";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";

async function readAll(response: Response): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  const parser = createRunEventParser({ onEvent: (event) => events.push(event) });
  parser.feed(await response.text());
  return events;
}

test("reattaching with Last-Event-ID replays from the next event and follows live: no duplicates, no gaps", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument();
  let reattached: Promise<RunEvent[]> | undefined;
  let lastSeen = -1;
  const run = await client.runAgent(documentId, "count to 3", {
    onEvent: (event, current) => {
      if (event.type === "tool-result" && !reattached) {
        lastSeen = event.id;
        // A second client (a reloaded tab) picks the run up from here.
        reattached = client
          .fetch(`/api/llm/agent/${current.runId}/stream`, { headers: { "last-event-id": String(event.id) } })
          .then(readAll);
      }
      return undefined;
    },
  });
  const replayed = await reattached;
  expect(replayed?.map((e) => e.id)).toEqual(run.events.filter((e) => e.id > lastSeen).map((e) => e.id));
  expect(replayed).toEqual(run.events.filter((e) => e.id > lastSeen));
  expect(replayed?.at(-1)).toMatchObject({ type: "finish", status: "done" });

  const fromQuery = await readAll(await client.fetch(`/api/llm/agent/${run.runId}/stream?from=0`));
  expect(fromQuery).toEqual(run.events);
});

test("a run's stored events come back as NDJSON from any offset, only to its owner", async ({ baseURL }) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument("Some words here.");
  const run = await client.runAgent(documentId, 'append "Logged"');
  const all = await client.fetch(`/api/runs/${run.runId}/events?offset=0`);
  expect(all.headers.get("content-type")).toContain("application/x-ndjson");
  const lines = (await all.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as RunEvent);
  expect(lines).toEqual(run.events);
  const tail = await client.fetch(`/api/runs/${run.runId}/events?offset=3`);
  const tailLines = (await tail.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as RunEvent);
  expect(tailLines).toEqual(run.events.filter((e) => e.id >= 3));

  const stranger = await new CoauthorClient(baseURL ?? "").signIn();
  expect((await stranger.fetch(`/api/runs/${run.runId}/events?offset=0`)).status).toBe(403);
  expect((await stranger.fetch(`/api/llm/agent/${run.runId}/stream`)).status).toBe(403);
  expect((await client.fetch("/api/runs/wrun_nope/events")).status).toBe(404);
  expect((await client.fetch(`/api/runs/${run.runId}/events?offset=-1`)).status).toBe(400);
});
