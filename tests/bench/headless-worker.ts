// Worker-thread entry of a headless section (see headless.ts): runs the section it was started
// with and posts its result back. A failure is thrown, and reaches the main thread as the worker's
// "error" event.
import { parentPort, workerData } from "node:worker_threads";
import { HEADLESS_SECTIONS, type HeadlessTask } from "./headless.ts";

if (!parentPort) throw new Error("headless-worker.ts runs only as a worker thread (headless.ts starts it)");
// Set by runHeadless, which builds it as a HeadlessTask.
const task = workerData as HeadlessTask;
parentPort.postMessage(await HEADLESS_SECTIONS[task.section](task.sizes));
