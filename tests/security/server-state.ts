// What the server under test has done, read from its data folder: tests use
// it to prove a refused request started no workflow.
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** How many workflow runs the server's local world holds. */
export function workflowRunCount(): number {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set (run through playwright.config.ts)");
  try {
    return readdirSync(join(dir, "workflow", "runs")).filter((name) => name.endsWith(".json")).length;
  } catch (error) {
    // Before the first run the folder does not exist yet.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
}
