import { availableParallelism } from "node:os";
import { join } from "node:path";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { env } from "@/env";
import type * as tasks from "./worker";
import type { StartedTask } from "./worker";

// Whole-document work (a new document's Markdown parsed and converted, a document exported, a
// stored state checked as it opens) costs time in proportion to the document: seconds at the
// largest the content rule accepts. On the event loop that stalls every socket and request of the
// instance; here it runs in worker threads, each task within a time budget, past which its thread
// is stopped (and replaced) and the caller told so.

type Tasks = typeof tasks;
type TaskName = keyof Tasks;

/** The app folder is the working directory of every start (scripts/start.mjs, `next dev`, vitest). */
const WORKER_FILE = join(/* turbopackIgnore: true */ process.cwd(), "src/server/document-work/worker.ts");

/** How long a new document's conversion may run. */
export const IMPORT_BUDGET_MS = env.DOCUMENT_WORK_BUDGET_MS;
/** Reading what is already stored gets more: refusing to export one's own document is worse than refusing an import. */
export const READ_BUDGET_MS = 4 * env.DOCUMENT_WORK_BUDGET_MS;

/** Whole-document work stopped at its budget; nothing it would have made was kept. */
export class DocumentWorkTooSlow extends Error {
  readonly budgetMs: number;
  constructor(task: TaskName, budgetMs: number) {
    super(`${task} took longer than its budget of ${budgetMs / 1_000} s`);
    this.name = "DocumentWorkTooSlow";
    this.budgetMs = budgetMs;
  }
}

let pool: Piscina | null = null;
const WARM_THREADS = 2;

/**
 * The pool: two threads kept warm, since loading the editor's modules takes a new one seconds and a
 * task stopped at its budget takes its thread with it (the other serves while it is replaced); up
 * to one per core but one on a larger machine, so the event loop keeps a core.
 */
function documentPool(): Piscina {
  pool ??= new Piscina({
    filename: WORKER_FILE,
    minThreads: WARM_THREADS,
    maxThreads: Math.max(WARM_THREADS, Math.min(4, availableParallelism() - 1)),
    // Threads past the warm ones stop after a minute without work.
    idleTimeout: 60_000,
  });
  return pool;
}

/** Starts the pool's threads now, so the first task does not wait for one to load. */
export function warmDocumentWork(): void {
  documentPool();
}

/**
 * Runs `task` on `input` in a worker thread; rejects with DocumentWorkTooSlow when it runs longer
 * than `budgetMs` (its thread is stopped then). The budget counts from when the task starts: time
 * spent queued behind other work, or waiting for a new thread to load, is not the task's own.
 */
export async function runDocumentWork<T extends TaskName>(
  task: T,
  input: Parameters<Tasks[T]>[0]["input"],
  budgetMs: number,
): Promise<ReturnType<Tasks[T]>> {
  const { port1: started, port2: startedInWorker } = new MessageChannel();
  const stop = new AbortController();
  let budget: NodeJS.Timeout | undefined;
  started.once("message", () => {
    budget = setTimeout(() => stop.abort(), budgetMs);
    started.close();
  });
  try {
    const call: StartedTask<typeof input> = { input, started: startedInWorker };
    return await documentPool().run(call, {
      name: task,
      signal: stop.signal,
      transferList: [startedInWorker],
    });
  } catch (error) {
    if (stop.signal.aborted) throw new DocumentWorkTooSlow(task, budgetMs);
    throw error;
  } finally {
    clearTimeout(budget);
    started.close();
  }
}
