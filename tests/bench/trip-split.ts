// Where a tool round trip's time goes, as the browser sees it: the callback route (the POST until
// its 204: session, rate limit, hook-token check, run and role lookup, the token-use claim in the
// database) and then the wake of the waiting step, the next model turn and the frame write (the
// 204 until the next tool-call frame arrives). A server CPU profile splits these further (docs/benchmarks.md).
import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import type { CoauthorClient } from "../lib/coauthor-client.ts";
import { RunStream } from "../lib/run-stream.ts";
import { percentile, round } from "./stats.ts";

/** Medians over one run of `calls` tool calls: callback route, then 204 → next tool-call frame. */
export async function roundTripSplit(client: CoauthorClient, calls: number) {
  const documentId = await client.createDocument();
  const editor = createDocumentEditor();
  const stream = await RunStream.start(client, documentId, `count to ${calls}`);
  const route: number[] = [];
  const after: number[] = [];
  let answeredAt = 0;
  for (let event = await stream.next(); event; event = await stream.next()) {
    if (event.type !== "tool-call") continue;
    if (answeredAt) after.push(performance.now() - answeredAt);
    const result = await runEditorTool(editor, event.toolName, event.input);
    const posted = performance.now();
    const response = await client.callback({
      hookToken: event.hookToken,
      toolCallId: event.toolCallId,
      result,
    });
    await response.arrayBuffer();
    if (response.status !== 204) throw new Error(`callback answered ${response.status}`);
    answeredAt = performance.now();
    route.push(answeredAt - posted);
  }
  return {
    calls,
    callbackRouteMs: round(percentile(route, 50)),
    wakeTurnFrameMs: round(percentile(after, 50)),
  };
}
