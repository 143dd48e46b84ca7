import { CoauthorClient } from "../lib/coauthor-client.ts";
import { startServer } from "./server.ts";

const server = await startServer(3405, { OFFLINE_MODEL_WORD_DELAY_MS: "0", AGENT_MAX_STEPS: "1000" });
try {
  const client = await new CoauthorClient(server.baseURL).signIn();
  const documentId = await client.createDocument();
  const t = Date.now();
  const run = await client.runAgent(documentId, "count to 200");
  console.log(
    "RESULT",
    run.events.length,
    JSON.stringify(run.events.at(-1)),
    (Date.now() - t) / 1000,
    "s",
    server.dataDir,
  );
} finally {
  await server.stop();
}
