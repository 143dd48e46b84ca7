import { resolve } from "node:path";
import { env } from "@/env";

/** The app's data folder (embedded database, workflow runs, generated secrets). */
export function dataDir(): string {
  return resolve(/* turbopackIgnore: true */ env.COAUTHOR_DATA_DIR ?? ".data");
}
