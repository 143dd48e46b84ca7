// What the server under test has done, read from its data folder: tests use
// it to prove a refused request started no workflow.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { sharedServerDataDir } from "../lib/shared-server.ts";

/** How many workflow runs the server's local world holds. */
export function workflowRunCount(): number {
  const dir = sharedServerDataDir();
  try {
    return readdirSync(join(dir, "workflow", "runs")).filter((name) => name.endsWith(".json")).length;
  } catch (error) {
    // Before the first run the folder does not exist yet.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
}
