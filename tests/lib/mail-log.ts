// With no SMTP_URL the app writes each mail as one log line (apps/editor/src/server/mail/mail.ts):
//   [mail] to=<address> subject="<subject>" link=<url>
// Tests take verification and password-reset links from there: from an AppServer's log, or, for
// the suite's shared server (playwright.config.ts webServer), from the copy of its output it
// writes to server.log in its data folder.
import { appendFileSync, readFileSync, watch } from "node:fs";
import { join } from "node:path";

/** A server log a test can wait on (AppServer is one; so is the shared server's log file). */
export interface LogSource {
  waitForLog(pattern: RegExp, options?: { from?: number; timeoutMs?: number }): Promise<RegExpMatchArray>;
}

/** The shared server's log file, waited on through file-change events (no polling). */
export class LogFile implements LogSource {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  /** The log's length so far (an offset for `from`). */
  get length(): number {
    return this.read().length;
  }

  private read(): string {
    appendFileSync(this.path, ""); // The server may not have written a line yet.
    return readFileSync(this.path, "utf8");
  }

  waitForLog(pattern: RegExp, { from = 0, timeoutMs = 15_000 } = {}): Promise<RegExpMatchArray> {
    const find = () => {
      for (const line of this.read().slice(from).split("\n")) {
        const match = line.match(pattern);
        if (match) return match;
      }
      return null;
    };
    appendFileSync(this.path, ""); // watch() needs the file to exist.
    return new Promise((resolve, reject) => {
      const watcher = watch(this.path);
      const finish = () => {
        clearTimeout(timer);
        watcher.close();
      };
      const check = () => {
        const match = find();
        if (!match) return;
        finish();
        resolve(match);
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no line matching ${pattern} in ${this.path} within ${timeoutMs} ms`));
      }, timeoutMs);
      watcher.on("change", check);
      watcher.on("error", (error) => {
        finish();
        reject(error);
      });
      check();
    });
  }
}

// Servers the tests start themselves, by URL (AppServer registers itself when it starts).
const servers = new Map<string, LogSource>();

/** Records the log of the server answering at `url` (called by AppServer.start). */
export function registerServerLog(url: string, log: LogSource): void {
  servers.set(url, log);
}

/** The log of the server at `url`: a test's own AppServer, else the suite's shared server. */
export function serverLogFor(url: string): LogSource {
  const own = servers.get(url);
  if (own) return own;
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error(`no log known for ${url} (E2E_DATA_DIR is not set)`);
  return new LogFile(join(dataDir, "server.log"));
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Waits for the next mail to `to` whose subject contains `subject` (in the log after offset `from`,
 * e.g. `server.log.length` taken before the action that sends it) and returns its link.
 */
export async function waitForMailLink(
  server: LogSource,
  to: string,
  subject: string,
  from = 0,
): Promise<string> {
  const pattern = new RegExp(
    `^\\[mail\\] to=${escaped(to.toLowerCase())} subject="[^"]*${escaped(subject)}[^"]*" link=(\\S+)$`,
  );
  const match = await server.waitForLog(pattern, { from });
  const link = match[1];
  if (!link) throw new Error(`mail line without a link: ${match[0]}`);
  return link;
}
