import { startServer } from "/work/main/tests/bench/server.ts";
import { CoauthorClient } from "/work/main/tests/lib/coauthor-client.ts";

const server = await startServer(3403, { OFFLINE_MODEL_WORD_DELAY_MS: "0" });
try {
  const client = await new CoauthorClient(server.baseURL).signIn();
  const documentId = await client.createDocument();
  let late: { hookToken: string; toolCallId: string } | undefined;
  const run = await client.runAgent(documentId, "count to 30", {
    onEvent: async (e, r) => {
      if (e.type === "tool-call" && e.toolCallId === "offline_call_3") {
        late = e;
        await client.cancel(r.runId);
        return "stop";
      }
      return undefined;
    },
  });
  const t = Date.now();
  const res = await client.callback({ ...late, result: { ok: true, blockIds: ["b12345678"] } });
  console.log(
    "RUN",
    run.runId,
    "late status",
    res.status,
    "DATA",
    server.dataDir,
    "last",
    JSON.stringify(run.events.at(-1)),
  );
} finally {
  await server.stop();
}
