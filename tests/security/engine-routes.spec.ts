import type { RunEvent } from "@coauthor/types";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { forgedDelivery } from "../lib/engine-delivery.ts";
import { serverEngineAuthorization } from "../lib/server-keys.ts";
import { expect, test } from "../lib/test.ts";

// The Workflow DevKit queue routes under /.well-known/workflow/v1/ belong to the engine. A forged
// delivery naming a live run with an attempt count over the engine's maximum would make the engine
// fail that run; only a request carrying the engine's credential reaches the handler.

/** Every way into the engine's routes a stranger might try (wrong credentials and methods included). */
function forgeries(runId: string): [string, string, RequestInit][] {
  const wrongPassword = `Basic ${Buffer.from("workflow-engine:guess").toString("base64")}`;
  return [
    ["flow", "/.well-known/workflow/v1/flow", forgedDelivery(runId)],
    [
      "flow, wrong credential",
      "/.well-known/workflow/v1/flow",
      forgedDelivery(runId, { authorization: wrongPassword }),
    ],
    ["flow, bearer", "/.well-known/workflow/v1/flow", forgedDelivery(runId, { authorization: "Bearer x" })],
    ["flow, GET", "/.well-known/workflow/v1/flow?__health", { method: "GET" }],
    ["step", "/.well-known/workflow/v1/step", forgedDelivery(runId)],
    ["webhook", `/.well-known/workflow/v1/webhook/${encodeURIComponent(runId)}`, forgedDelivery(runId)],
    ["unknown", "/.well-known/workflow/v1/anything", forgedDelivery(runId)],
  ];
}

/** The run's row in History (its recorded status). */
async function historyStatus(client: CoauthorClient, documentId: string, runId: string) {
  const runs = await client.trpc<{ id: string; status: string }[]>("assistant.runs", { documentId }, "query");
  return runs.find((run) => run.id === runId)?.status;
}

test("forged engine deliveries for a live run get 401 and the run still finishes normally", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument();
  const answers: Record<string, number> = {};
  let forgedDuring: RunEvent["type"] | undefined;

  const run = await client.runAgent(documentId, "count to 3", {
    onEvent: async (event, { runId }) => {
      // While the run waits on its first tool call: every forgery, anonymous and signed in.
      if (event.type !== "tool-call" || forgedDuring) return undefined;
      forgedDuring = event.type;
      for (const [name, path, init] of forgeries(runId)) {
        const anonymous = await fetch(`${baseURL}${path}`, init);
        answers[name] = anonymous.status;
        expect(await anonymous.json()).toMatchObject({ code: "unauthorized:engine" });
        // A writer's session cookie is no credential for the engine either.
        const signedIn = await client.fetch(path, init);
        answers[`${name} (signed in)`] = signedIn.status;
        await signedIn.arrayBuffer();
      }
      expect(await historyStatus(client, documentId, runId)).toBe("running");
      return undefined;
    },
  });

  expect(forgedDuring).toBe("tool-call");
  expect(Object.values(answers).every((status) => status === 401)).toBe(true);
  expect(Object.keys(answers)).toHaveLength(14);
  expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  // All three paragraphs were written: every tool call was answered and accepted.
  const results = run.events.filter((event) => event.type === "tool-result");
  expect(results.map((event) => event.ok)).toEqual([true, true, true]);
  await expect.poll(() => historyStatus(client, documentId, run.runId)).toBe("done");
});

test("the same delivery with the engine's credential is taken: the forgery above is a real threat", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument();
  let delivered: number | undefined;
  const run = await client.runAgent(documentId, "count to 3", {
    onEvent: async (event, { runId }) => {
      if (event.type !== "tool-call" || delivered !== undefined) return undefined;
      const response = await fetch(
        `${baseURL}/.well-known/workflow/v1/flow`,
        forgedDelivery(runId, { authorization: serverEngineAuthorization() }),
      );
      delivered = response.status;
      await response.arrayBuffer();
      return undefined;
    },
  });
  // The engine took it and failed the run (more deliveries than it allows): the run did not finish its work.
  expect(delivered).toBe(200);
  expect(run.events.at(-1)).not.toMatchObject({ type: "finish", status: "done" });
  await expect.poll(() => historyStatus(client, documentId, run.runId)).toBe("failed");
});
