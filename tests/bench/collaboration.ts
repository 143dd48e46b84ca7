// Collaboration figures: keystroke latency from one copy to the others (2, 10, 50 clients in the
// full bench) through Coauthor's sync server and, as the floor, through a bare Hocuspocus relay in
// this process (no hooks, no storage, no auth); an agent edit reaching a co-editor's editor; server
// memory per open document and per connection; opening a 10,000-block document; and the Yjs state
// of a document after 10,000 edits.
import { createServer } from "node:net";
import { runEditorTool, YJS_ROOT_NAME } from "@coauthor/tools";
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import { Server } from "@hocuspocus/server";
import WebSocket from "ws";
import * as Y from "yjs";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { SyncClient } from "../lib/sync-client.ts";
import { rssBytes } from "./concurrency.ts";
import type { BenchSizes } from "./sizes.ts";
import { percentile, round } from "./stats.ts";

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A copy with no editor (latency receivers, memory load): a provider and a plain Y.Doc. */
function lightClient(url: string, documentName: string, headers: Record<string, string>) {
  class HeaderWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  const doc = new Y.Doc();
  const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: HeaderWebSocket });
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: documentName,
    document: doc,
    token: "t",
  });
  provider.attach();
  const synced = new Promise<void>((resolve) => {
    if (provider.isSynced) resolve();
    else provider.on("synced", () => resolve());
  });
  return {
    doc,
    synced,
    close: () => {
      provider.destroy();
      socket.destroy();
    },
  };
}

type Light = ReturnType<typeof lightClient>;

/**
 * Keystroke latency: the first client types one character at a time into the shared root; the
 * time until each other client's document has it, over `keystrokes` keystrokes.
 */
async function keystrokeLatency(
  clients: Light[],
  keystrokes: number,
): Promise<{ p50Ms: number; p95Ms: number }> {
  const [writer, ...readers] = clients as [Light, ...Light[]];
  const samples: number[] = [];
  for (let n = 0; n < keystrokes; n++) {
    const arrived = readers.map(
      (reader) =>
        new Promise<number>((resolve) => {
          const onUpdate = () => {
            reader.doc.off("update", onUpdate);
            resolve(performance.now());
          };
          reader.doc.on("update", onUpdate);
        }),
    );
    const sent = performance.now();
    const root = writer.doc.get(YJS_ROOT_NAME, Y.XmlText);
    root.insert(root.length, "k");
    for (const at of await Promise.all(arrived)) samples.push(at - sent);
    await pause(10);
  }
  return { p50Ms: round(percentile(samples, 50)), p95Ms: round(percentile(samples, 95)) };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function latencyAt(
  count: number,
  keystrokes: number,
  connect: () => Light,
): Promise<{ clients: number; p50Ms: number; p95Ms: number }> {
  const clients = Array.from({ length: count }, connect);
  await Promise.all(clients.map((client) => client.synced));
  const latency = await keystrokeLatency(clients, keystrokes);
  for (const client of clients) client.close();
  return { clients: count, ...latency };
}

/** Runs the collaboration measurements against the running app at `baseURL` (server processes: `pids`). */
export async function benchCollaboration(
  baseURL: string,
  pids: () => number[],
  sizes: BenchSizes["collaboration"],
) {
  const owner = await new CoauthorClient(baseURL).signIn();
  const headers = { cookie: owner.cookie, origin: baseURL };
  const collabUrl = `${baseURL.replace(/^http/, "ws")}/collab`;

  // The floor: a bare Hocuspocus relay in this process.
  const relayPort = await freePort();
  const relay = new Server({ port: relayPort, address: "127.0.0.1", quiet: true, stopOnSignals: false });
  await relay.listen();
  const latency: {
    clients: number;
    coauthor: { p50Ms: number; p95Ms: number };
    relay: { p50Ms: number; p95Ms: number };
  }[] = [];
  for (const count of sizes.clients) {
    const documentId = await owner.createDocument("Typing here.");
    const ours = await latencyAt(count, sizes.keystrokes, () => lightClient(collabUrl, documentId, headers));
    const bare = await latencyAt(count, sizes.keystrokes, () =>
      lightClient(`ws://127.0.0.1:${relayPort}`, `bench-${count}`, {}),
    );
    latency.push({ clients: count, coauthor: ours, relay: bare });
  }
  await relay.destroy();

  // An agent edit (a tool run on one copy's editor) until a co-editor's editor shows it.
  const agentDoc = await owner.createDocument("Agent target.");
  const agentCopy = new SyncClient({ baseURL, cookie: owner.cookie, documentId: agentDoc });
  const coEditor = new SyncClient({ baseURL, cookie: owner.cookie, documentId: agentDoc });
  await Promise.all([agentCopy.synced(), coEditor.synced()]);
  const agentSamples: number[] = [];
  for (let n = 0; n < sizes.agentEdits; n++) {
    const text = `Agent paragraph ${n}.`;
    const started = performance.now();
    await runEditorTool(agentCopy.bound.editor, "insertBlocks", { markdown: text, position: { at: "end" } });
    while (!coEditor.markdown().endsWith(text)) await pause(0);
    agentSamples.push(performance.now() - started);
  }

  // A comment reply (through the API: the server writes it into the live document) until the
  // co-editor's copy has it — beside a keystroke's A→B, which goes straight through the socket.
  const firstBlockId =
    (agentCopy.bound.editor.getEditorState().toJSON().root.children[0] as { $?: { blockId?: string } }).$
      ?.blockId ?? "";
  const { threadId } = await owner.trpc<{ threadId: string }>("comments.add", {
    documentId: agentDoc,
    anchor: { blockId: firstBlockId, offset: 0 },
    focus: { blockId: firstBlockId, offset: 5 },
    quote: "Agent",
    body: "Is this right?",
  });
  const commentSamples: number[] = [];
  for (let n = 0; n < sizes.agentEdits; n++) {
    const arrived = new Promise<number>((resolve) => {
      const onUpdate = () => {
        coEditor.doc.off("update", onUpdate);
        resolve(performance.now());
      };
      coEditor.doc.on("update", onUpdate);
    });
    const started = performance.now();
    await owner.trpc("comments.reply", { documentId: agentDoc, threadId, body: `Reply ${n}.` });
    commentSamples.push((await arrived) - started);
  }
  agentCopy.close();
  coEditor.close();

  // Memory: documents with one connection each, then as many more connections on one document.
  const opened = sizes.memoryDocuments;
  const baseline = rssBytes(pids());
  const documents = await Promise.all(
    Array.from({ length: opened }, () => owner.createDocument("A document.")),
  );
  const perDocument = documents.map((id) => lightClient(collabUrl, id, headers));
  await Promise.all(perDocument.map((client) => client.synced));
  await pause(500);
  const withDocuments = rssBytes(pids());
  const crowd = Array.from({ length: opened }, () => lightClient(collabUrl, documents[0] ?? "", headers));
  await Promise.all(crowd.map((client) => client.synced));
  await pause(500);
  const withConnections = rssBytes(pids());
  for (const client of [...perDocument, ...crowd]) client.close();

  // A large document (10,000 blocks in the full bench): opened from storage (never loaded since it
  // was created).
  const big = Array.from(
    { length: sizes.largeDocumentBlocks },
    (_, n) => `Paragraph ${n} of a long document.`,
  ).join("\n\n");
  const bigDoc = await owner.createDocument(big);
  const openStarted = performance.now();
  const reader = lightClient(collabUrl, bigDoc, headers);
  await reader.synced;
  const openMs = performance.now() - openStarted;
  reader.close();
  const editorStarted = performance.now();
  const editorCopy = new SyncClient({ baseURL, cookie: owner.cookie, documentId: bigDoc });
  await editorCopy.synced(30_000);
  const blocks = editorCopy.bound.editor.getEditorState().toJSON().root.children.length;
  const editorOpenMs = performance.now() - editorStarted;
  editorCopy.close();

  // Edits (keystrokes and deletions; 10,000 in the full bench) on one document: the Yjs state a
  // snapshot then holds.
  const editedDoc = await owner.createDocument("Edited.");
  const editor = lightClient(collabUrl, editedDoc, headers);
  await editor.synced;
  const root = editor.doc.get(YJS_ROOT_NAME, Y.XmlText);
  for (let n = 0; n < sizes.edits; n++) {
    if (n % 5 === 4) root.delete(root.length - 1, 1);
    else root.insert(root.length, "x");
    if (n % 500 === 0) await pause(0);
  }
  await pause(1_000);
  editor.close();
  const fresh = lightClient(collabUrl, editedDoc, headers);
  await fresh.synced;
  const stateBytes = Y.encodeStateAsUpdate(fresh.doc).byteLength;
  fresh.close();

  return {
    latency,
    agentEditToCoEditor: {
      p50Ms: round(percentile(agentSamples, 50)),
      p95Ms: round(percentile(agentSamples, 95)),
    },
    commentToCoEditor: {
      p50Ms: round(percentile(commentSamples, 50)),
      p95Ms: round(percentile(commentSamples, 95)),
    },
    memory: {
      perOpenDocumentKB: round((withDocuments - baseline) / opened / 1024),
      perConnectionKB: round((withConnections - withDocuments) / opened / 1024),
    },
    open10k: { blocks, syncMs: round(openMs), editorMs: round(editorOpenMs) },
    after10kEdits: { edits: sizes.edits, yjsStateKB: round(stateBytes / 1024) },
  };
}

/** Prints the collaboration table (Coauthor's sync server beside a bare Hocuspocus relay). */
export function printCollaboration(collab: Awaited<ReturnType<typeof benchCollaboration>>): void {
  const rows: Record<string, string | number>[] = collab.latency.map(({ clients, coauthor, relay }) => ({
    figure: `keystroke A→B, ${clients} clients, p50 / p95 (ms)`,
    coauthor: `${coauthor.p50Ms} / ${coauthor.p95Ms}`,
    "bare relay": `${relay.p50Ms} / ${relay.p95Ms}`,
    "÷ relay (p95)": relay.p95Ms > 0 ? `${round(coauthor.p95Ms / relay.p95Ms)}×` : "–",
    target: clients === 10 ? "p95 ≤ 50, ≤ 2× relay" : clients === 50 ? "p95 ≤ 150, ≤ 2× relay" : "",
  }));
  const single = (figure: string, coauthor: string | number, target = "") => ({
    figure,
    coauthor,
    "bare relay": "",
    "÷ relay (p95)": "",
    target,
  });
  rows.push(
    single(
      "agent edit → co-editor's editor, p50 / p95 (ms)",
      `${collab.agentEditToCoEditor.p50Ms} / ${collab.agentEditToCoEditor.p95Ms}`,
    ),
    single(
      "comment reply (API) → co-editor's copy, p50 / p95 (ms)",
      `${collab.commentToCoEditor.p50Ms} / ${collab.commentToCoEditor.p95Ms}`,
      "as fast as a keystroke (row 1)",
    ),
    single(
      "server memory per open document / per connection (KB)",
      `${collab.memory.perOpenDocumentKB} / ${collab.memory.perConnectionKB}`,
    ),
    single(
      `open a ${collab.open10k.blocks}-block document: synced / in an editor (ms)`,
      `${collab.open10k.syncMs} / ${collab.open10k.editorMs}`,
      "≤ 1,500",
    ),
    single(
      `Yjs state after ${collab.after10kEdits.edits.toLocaleString("en")} edits (KB)`,
      collab.after10kEdits.yjsStateKB,
    ),
  );
  console.log("\nCollaboration: Coauthor's sync server vs a bare Hocuspocus relay (loopback, one run)\n");
  console.table(rows);
}
