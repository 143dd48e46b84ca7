// Home page benchmark: one writer with 1,000 documents (each a few hundred words), and the time
// `documents.list` takes over HTTP for what the home page asks: the first page in each order, a
// later page, a search for a word one document holds in its text, and a search nothing matches.
// Figures, not assertions.

import { CoauthorClient } from "../lib/coauthor-client.ts";
import { percentile, round } from "./stats.ts";

const DOCUMENTS = 1_000;
const SAMPLES = 20;

export type HomeBenchRow = { figure: string; p50Ms: number; p95Ms: number; target: string };

/** A few hundred words of filler; document `index` alone holds the word "quokka<index>". */
function body(index: number): string {
  const sentence = "The committee reviewed the figures and agreed the plan needs another pass. ";
  return `${sentence.repeat(40)}\n\nNote quokka${index} is here.`;
}

async function timeList(
  client: CoauthorClient,
  input: Record<string, unknown>,
): Promise<{ p50: number; p95: number }> {
  const samples: number[] = [];
  for (let sample = 0; sample < SAMPLES; sample++) {
    const start = performance.now();
    await client.trpc("documents.list", input, "query");
    samples.push(performance.now() - start);
  }
  return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) };
}

/** Seeds 1,000 documents for a fresh writer and times the home list's queries. */
export async function benchHome(baseURL: string): Promise<HomeBenchRow[]> {
  const client = await new CoauthorClient(baseURL).signIn();
  for (let index = 0; index < DOCUMENTS; index++) await client.createDocument(body(index), `Report ${index}`);
  const cases: [string, Record<string, unknown>, string][] = [
    ["first page, last edited", {}, "p95 ≤ 100"],
    ["first page, by title", { sort: "title" }, ""],
    ["page 20 (documents 951–1,000), created", { sort: "created", cursor: 950 }, ""],
    ["search: a word in one document's text", { query: "quokka777" }, "p95 ≤ 150"],
    ["search: no match", { query: "zzzz-nothing" }, ""],
  ];
  const rows: HomeBenchRow[] = [];
  for (const [figure, input, target] of cases) {
    const { p50, p95 } = await timeList(client, input);
    rows.push({ figure: `${figure}, ${DOCUMENTS} documents (ms)`, p50Ms: p50, p95Ms: p95, target });
  }
  return rows;
}
