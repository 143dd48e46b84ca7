import { networkInterfaces } from "node:os";
import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { SyncClient } from "../lib/sync-client.ts";
import { expect, test } from "../lib/test.ts";

const METRICS_TOKEN = "metrics-test-token-0123456789abcdefghijkl";

/** One sample of a Prometheus text exposition: `name{labels} value`, 0 when absent. */
function sample(exposition: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of exposition.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? "").split(",").filter(Boolean);
    if (wanted.every((label) => present.includes(label)) && present.length === wanted.length)
      return Number(match[3]);
  }
  return 0;
}

async function scrape(baseURL: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${baseURL}/api/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return response.text();
}

/** This machine's address on a network (not loopback): a request to it comes from "outside" loopback. */
function networkAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && !entry.internal && entry.family === "IPv4")?.address;
  if (!address) throw new Error("this test needs a network interface besides loopback (none found)");
  return address;
}

test.describe("metrics endpoint", () => {
  test("counts a run's outcome, its tool round trip and first delta, and shows open documents and sockets", async () => {
    // A server of its own: the counters are the process's, and the suite runs other files beside this one.
    test.setTimeout(120_000);
    const server = new AppServer({});
    try {
      await server.start();
      await countsOneRun(server.url);
    } finally {
      await server.dispose();
    }
  });

  /** One run and one co-editor's socket, counted by `base`'s metrics (nobody else uses `base`). */
  async function countsOneRun(base: string): Promise<void> {
    const client = await new CoauthorClient(base).signIn();
    const documentId = await client.createDocument("First paragraph.");
    const before = await scrape(base);
    const run = await client.runAgent(documentId, 'append "Measured"');
    expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done" });

    // The run's end is recorded just after its last frame.
    await expect
      .poll(async () => sample(await scrape(base), "coauthor_agent_runs_total", { outcome: "done" }))
      .toBe(sample(before, "coauthor_agent_runs_total", { outcome: "done" }) + 1);
    const after = await scrape(base);
    const roundTrips = (text: string) =>
      sample(text, "coauthor_tool_round_trip_seconds_count", { outcome: "result" });
    expect(roundTrips(after)).toBe(roundTrips(before) + 1);
    expect(sample(after, "coauthor_tool_round_trip_seconds_sum", { outcome: "result" })).toBeGreaterThan(0);
    const firstDeltas = (text: string) => sample(text, "coauthor_agent_first_delta_seconds_count");
    expect(firstDeltas(after)).toBe(firstDeltas(before) + 1);
    expect(after).toContain("# TYPE coauthor_tool_round_trip_seconds histogram");

    // A co-editor's socket and its document show on the sync server's gauges, and go when it leaves.
    const sockets = (text: string) => sample(text, "coauthor_collab_open_sockets");
    const socketsBefore = sockets(after);
    const editor = new SyncClient({ baseURL: base, cookie: client.cookie, documentId });
    try {
      await editor.synced();
      const open = await scrape(base);
      expect(sockets(open)).toBe(socketsBefore + 1);
      expect(sample(open, "coauthor_collab_open_documents")).toBeGreaterThanOrEqual(1);
      expect(sample(open, "coauthor_collab_open_connections")).toBeGreaterThanOrEqual(1);
    } finally {
      editor.close();
    }
    await expect.poll(async () => sockets(await scrape(base))).toBe(socketsBefore);
  }

  test("without METRICS_TOKEN, answers this machine only: not the network, not a relay from a proxy", async ({
    baseURL,
  }) => {
    const base = baseURL ?? "";
    const relayed = await fetch(`${base}/api/metrics`, { headers: { "x-forwarded-for": "203.0.113.7" } });
    expect(relayed.status).toBe(403);
    expect(await relayed.json()).toMatchObject({ code: "forbidden:metrics" });

    test.setTimeout(120_000);
    const server = new AppServer({ HOST: "0.0.0.0" });
    try {
      await server.start();
      await scrape(server.url);
      const port = new URL(server.url).port;
      const outside = await fetch(`http://${networkAddress()}:${port}/api/metrics`);
      expect(outside.status).toBe(403);
      expect(await outside.text()).not.toContain("coauthor_");
    } finally {
      await server.dispose();
    }
  });

  test("with METRICS_TOKEN, answers its bearer from anywhere and refuses everyone else", async () => {
    test.setTimeout(120_000);
    const server = new AppServer({ HOST: "0.0.0.0", METRICS_TOKEN });
    try {
      await server.start();
      const outside = `http://${networkAddress()}:${new URL(server.url).port}`;
      expect(
        sample(
          await scrape(outside, { authorization: `Bearer ${METRICS_TOKEN}` }),
          "coauthor_agent_runs_total",
        ),
      ).toBe(0);
      for (const [base, headers] of [
        [server.url, {}],
        [outside, {}],
        [server.url, { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}` }],
        [outside, { authorization: `Basic ${METRICS_TOKEN}` }],
      ] as const) {
        const refused = await fetch(`${base}/api/metrics`, { headers });
        expect(refused.status).toBe(401);
        expect(refused.headers.get("www-authenticate")).toContain("Bearer");
        expect(await refused.text()).not.toContain("coauthor_");
      }
    } finally {
      await server.dispose();
    }
  });
});
