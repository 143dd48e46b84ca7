// One named part of the bench. A section that fails says so by name, with the last output of every
// server it used: its own (started while it ran) and the shared ones it was given. A bare
// `fetch failed` after the previous section's progress line sent people to the wrong section and
// the wrong server's log.
import { type AppServer, watchServerStarts } from "../lib/app-server.ts";
import { round } from "./stats.ts";

// Enough of a server's output to hold its last requests and any error it printed.
const TAIL_LINES = 40;

/** A section's failure: its name, and the error it failed with as the cause. */
export class SectionFailed extends Error {
  override readonly name = "SectionFailed";
  readonly section: string;
  constructor(section: string, cause: unknown) {
    super(`bench section "${section}" failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.section = section;
  }
}

/** The last output of each server, headed by the section and the server's URL and state. */
function serverTails(section: string, servers: AppServer[]): string {
  return servers
    .map(
      (server) =>
        `--- ${section}: ${server.url} (${server.state()}), its last ${TAIL_LINES} lines of output:\n` +
        server.lastLines(TAIL_LINES),
    )
    .join("\n");
}

/**
 * Runs `work` as the section `name` (its start and time logged). If it fails, prints the output
 * tails of the servers it started and of `shared`, and throws a SectionFailed naming it.
 */
export async function section<T>(name: string, work: () => Promise<T>, shared: AppServer[] = []): Promise<T> {
  console.log(`[bench] ${name}`);
  const started = performance.now();
  const own: AppServer[] = [];
  const stopWatching = watchServerStarts((server) => own.push(server));
  try {
    const result = await work();
    console.log(`[bench] ${name}: done in ${round((performance.now() - started) / 1000)} s`);
    return result;
  } catch (error) {
    const servers = [...new Set([...shared, ...own])];
    if (servers.length > 0) console.error(serverTails(name, servers));
    throw new SectionFailed(name, error);
  } finally {
    stopWatching();
  }
}
