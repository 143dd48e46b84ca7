// Home page benchmark: one writer with 1,000 documents (the full bench's count; each a few hundred
// words), and the time
// `documents.list` takes over HTTP for what the home page asks: the first page in each order, a
// later page, a search for a word one document holds in its text, and a search nothing matches.
// Figures, not assertions.

import { DOCUMENT_PAGE_SIZE } from "@coauthor/types";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import type { BenchSizes } from "./sizes.ts";
import { percentile, round } from "./stats.ts";

export type HomeBenchRow = { figure: string; p50Ms: number; p95Ms: number; target: string };

/** A few hundred words of filler; document `index` alone holds the word "quokka<index>". */
function body(index: number): string {
  const sentence = "The committee reviewed the figures and agreed the plan needs another pass. ";
  return `${sentence.repeat(40)}\n\nNote quokka${index} is here.`;
}

async function timeList(
  client: CoauthorClient,
  input: Record<string, unknown>,
  count: number,
): Promise<{ p50: number; p95: number }> {
  const samples: number[] = [];
  for (let sample = 0; sample < count; sample++) {
    const start = performance.now();
    await client.trpc("documents.list", input, "query");
    samples.push(performance.now() - start);
  }
  return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) };
}

/** Seeds `documents` documents for a fresh writer and times the home list's queries. */
export async function benchHome(
  baseURL: string,
  { documents, samples }: BenchSizes["home"],
): Promise<HomeBenchRow[]> {
  const client = await new CoauthorClient(baseURL).signIn();
  for (let index = 0; index < documents; index++) await client.createDocument(body(index), `Report ${index}`);
  const lastPage = Math.max(0, Math.ceil(documents / DOCUMENT_PAGE_SIZE) - 1) * DOCUMENT_PAGE_SIZE;
  const searched = Math.floor(documents * 0.777);
  const cases: [string, Record<string, unknown>, string][] = [
    ["first page, last edited", {}, "p95 ≤ 100"],
    ["first page, by title", { sort: "title" }, ""],
    [
      `page ${lastPage / DOCUMENT_PAGE_SIZE + 1} (documents ${lastPage + 1}–${documents.toLocaleString("en")}), created`,
      { sort: "created", cursor: lastPage },
      "",
    ],
    ["search: a word in one document's text", { query: `quokka${searched}` }, "p95 ≤ 150"],
    ["search: no match", { query: "zzzz-nothing" }, ""],
  ];
  const rows: HomeBenchRow[] = [];
  for (const [figure, input, target] of cases) {
    const { p50, p95 } = await timeList(client, input, samples);
    rows.push({ figure: `${figure}, ${documents} documents (ms)`, p50Ms: p50, p95Ms: p95, target });
  }
  return rows;
}

/** Prints the home page table. */
export function printHome(rows: HomeBenchRow[]): void {
  console.log("\nHome page: documents.list over HTTP\n");
  console.table(rows);
}
