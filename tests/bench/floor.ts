// The physical floor on this machine: what loopback HTTP and a raw SSE stream
// cost with no framework at all. Every figure of ours is reported as a ratio to it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { percentile, round } from "./stats.ts";

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Loopback POST round trips (keep-alive) and a raw SSE stream of `frames` frames. */
export async function physicalFloor(posts: number, frames: number) {
  const server = createServer((request, response) => {
    if (request.url === "/sse") {
      response.writeHead(200, { "content-type": "text/event-stream" });
      // As fast as it can, one write per frame, each stamped with its emit time.
      let i = 0;
      const pump = () => {
        while (i < frames) {
          const ok = response.write(`id: ${i}\nevent: text-delta\ndata: {"delta":"${Date.now()}"}\n\n`);
          i++;
          if (!ok) return void response.once("drain", pump);
        }
        response.end();
      };
      pump();
      return;
    }
    request.resume();
    request.on("end", () => {
      response.writeHead(204);
      response.end();
    });
  });
  const base = await listen(server);
  try {
    const trips: number[] = [];
    for (let i = 0; i < posts; i++) {
      const started = performance.now();
      const response = await fetch(`${base}/post`, { method: "POST", body: '{"result":{"ok":true}}' });
      await response.arrayBuffer();
      trips.push(performance.now() - started);
    }
    const started = performance.now();
    const response = await fetch(`${base}/sse`);
    const reader = response.body?.getReader();
    if (!reader) throw new Error("no body");
    const decoder = new TextDecoder();
    let firstFrame = 0;
    let buffer = "";
    const delays: number[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      firstFrame ||= performance.now() - started;
      buffer += decoder.decode(value, { stream: true });
      const now = Date.now();
      const parts = buffer.split("\n\n");
      buffer = parts.pop() ?? "";
      for (const part of parts) delays.push(now - Number(part.match(/"delta":"(\d+)"/)?.[1] ?? now));
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      postRoundTripMedianMs: round(percentile(trips, 50)),
      postRoundTripP95Ms: round(percentile(trips, 95)),
      sseFirstFrameMs: round(firstFrame),
      sseFramesPerSecond: Math.round(delays.length / seconds),
      sseEmitToArrivalP95Ms: round(percentile(delays, 95)),
    };
  } finally {
    server.close();
  }
}
