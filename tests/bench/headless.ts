// The sections that measure this process's own work, with no server: the editor tools, Markdown
// load and export, suggestions, version storage, comment threads, the server executor's call. Each runs on a worker thread. On the main thread, one of them holds
// the event loop for up to minutes, and that loop owns the keep-alive sockets to the servers: a
// server closes an idle one after 5 s, the blocked bench never hears of it, and its next request
// goes down the dead socket (`TypeError: fetch failed … other side closed`, issue #40 — the
// collaboration section's first request, after the tools, Markdown and suggestions sections).
import { Worker } from "node:worker_threads";
import { benchComments } from "./comments.ts";
import { benchMarkdown } from "./markdown.ts";
import { benchServerExecutor } from "./server-executor.ts";
import type { BenchSizes } from "./sizes.ts";
import { benchSuggestions } from "./suggestions.ts";
import { benchTools } from "./tools.ts";
import { benchVersions } from "./versions.ts";

/** Each headless section, by name: what it runs given the bench's sizes. */
export const HEADLESS_SECTIONS = {
  tools: (sizes: BenchSizes) => benchTools(sizes.tools),
  markdown: async (sizes: BenchSizes) => benchMarkdown(sizes.markdown),
  suggestions: (sizes: BenchSizes) => benchSuggestions(sizes.suggestions),
  versions: async (sizes: BenchSizes) => benchVersions(sizes.versions),
  comments: async (sizes: BenchSizes) => benchComments(sizes.comments),
  serverExecutor: async (sizes: BenchSizes) => benchServerExecutor(sizes.serverExecutor),
};

/** The name of a headless section. */
export type HeadlessSection = keyof typeof HEADLESS_SECTIONS;
/** What a headless section returns. */
export type HeadlessResult<K extends HeadlessSection> = Awaited<ReturnType<(typeof HEADLESS_SECTIONS)[K]>>;

/** What headless-worker.ts is started with. */
export interface HeadlessTask {
  section: HeadlessSection;
  sizes: BenchSizes;
}

/** Runs the headless section `section` on a worker thread of its own and returns its result. */
export function runHeadless<K extends HeadlessSection>(
  section: K,
  sizes: BenchSizes,
): Promise<HeadlessResult<K>> {
  const task: HeadlessTask = { section, sizes };
  const worker = new Worker(new URL("./headless-worker.ts", import.meta.url), { workerData: task });
  return new Promise((resolve, reject) => {
    let answered = false;
    // The worker posts exactly one message, the section's result (structured-cloned plain rows).
    worker.once("message", (result: HeadlessResult<K>) => {
      answered = true;
      resolve(result);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (!answered) reject(new Error(`the ${section} worker exited (code ${code}) without a result`));
    });
  });
}
