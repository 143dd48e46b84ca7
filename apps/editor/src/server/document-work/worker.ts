import type { MessagePort } from "node:worker_threads";
import * as tasks from "@coauthor/tools/document-work";

// The document worker's entry: Node loads it in each worker thread of worker-pool.ts, by its path
// under the app folder (never through the Next build), and runs the task named in each call.
// Node strips the TypeScript of this file and of @coauthor/tools itself, so it imports nothing
// else of the app.

/** A task's input, and the port on which the thread says the task has started. */
export interface StartedTask<T> {
  input: T;
  started: MessagePort;
}

/**
 * `task`, first telling the pool it has started: a task's budget counts from then, not from when
 * it was asked for (a queued task, or one waiting for a new thread to load, has done nothing yet).
 */
function announced<T, R>(task: (input: T) => R): (call: StartedTask<T>) => R {
  return ({ input, started }) => {
    started.postMessage("started");
    started.close();
    return task(input);
  };
}

export const importMarkdownDocument = announced(tasks.importMarkdownDocument);
export const importCriticMarkupDocument = announced(tasks.importCriticMarkupDocument);
export const exportStateMarkdown = announced(tasks.exportStateMarkdown);
export const exportStateWithBlocks = announced(tasks.exportStateWithBlocks);
export const exportStateView = announced(tasks.exportStateView);
export const stateLoadProblem = announced(tasks.stateLoadProblem);
export const repairStoredState = announced(tasks.repairStoredState);
