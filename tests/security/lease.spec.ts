import { CoauthorClient, sharedDocument } from "../lib/coauthor-client.ts";
import { RunStream } from "../lib/run-stream.ts";
import { expect, test } from "../lib/test.ts";

// The lease that picks the one tab executing a run's tool calls: only the run's writer may ask,
// one tab holds it at a time, and it can be let go.

const lease = (client: CoauthorClient, runId: string, body: unknown) =>
  client.fetch(`/api/llm/agent/${runId}/lease`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

test("only the run's writer gets the lease, one tab at a time; others are refused", async ({ baseURL }) => {
  const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "editor");
  const stream = await RunStream.start(owner, documentId, "count to 20");
  const runId = stream.runId;
  try {
    expect(await (await lease(owner, runId, { tabId: "tab-one-1234" })).json()).toMatchObject({
      granted: true,
    });
    expect(await (await lease(owner, runId, { tabId: "tab-two-1234" })).json()).toMatchObject({
      granted: false,
    });
    // Renewing keeps it; letting go hands it over at once.
    expect(await (await lease(owner, runId, { tabId: "tab-one-1234" })).json()).toMatchObject({
      granted: true,
    });
    await lease(owner, runId, { tabId: "tab-one-1234", release: true });
    expect(await (await lease(owner, runId, { tabId: "tab-two-1234" })).json()).toMatchObject({
      granted: true,
    });

    expect((await lease(member, runId, { tabId: "tab-evil-1234" })).status).toBe(403);
    expect((await lease(new CoauthorClient(baseURL ?? ""), runId, { tabId: "tab-anon-1234" })).status).toBe(
      401,
    );
    expect((await lease(owner, runId, { tabId: "x" })).status).toBe(400);
    expect((await lease(owner, "no-such-run", { tabId: "tab-one-1234" })).status).toBe(404);
  } finally {
    await owner.cancel(runId);
  }
});
