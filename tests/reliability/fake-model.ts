// A stand-in for an OpenAI-compatible model server that fails mid-answer: the
// planner's structured request gets "no plan"; every streamed answer sends a
// few words and then the connection is cut (no [DONE]).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A running fake model server. */
export interface FailingModelServer {
  /** The provider's base URL (ends in /v1). */
  baseURL: string;
  /** How many streamed answers were cut off. */
  cutOff: () => number;
  close: () => Promise<void>;
}

function chunk(text: string): string {
  const body = {
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    created: 0,
    model: "fake",
    choices: [{ index: 0, delta: { role: "assistant", content: text }, finish_reason: null }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** Starts the server on a free port of 127.0.0.1. */
export async function startFailingModelServer(): Promise<FailingModelServer> {
  let cut = 0;
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      const body: unknown = JSON.parse(Buffer.concat(parts).toString("utf8") || "{}");
      const streamed = typeof body === "object" && body !== null && "stream" in body && body.stream === true;
      if (!streamed) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "chatcmpl-fake",
            object: "chat.completion",
            created: 0,
            model: "fake",
            choices: [
              {
                index: 0,
                message: { role: "assistant", content: '{"goal":"","steps":[]}' },
                finish_reason: "stop",
              },
            ],
            usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk("Working on "));
      res.write(chunk("it, "));
      setTimeout(() => {
        cut++;
        res.socket?.destroy();
      }, 100);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    cutOff: () => cut,
    close: () =>
      new Promise<void>((done, fail) => {
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}
