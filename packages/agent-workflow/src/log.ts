// Structured logs: one JSON object per line on stdout (errors on stderr), with
// the run's ids as fields so a run can be followed with `grep runId=`-free
// tools (jq, a log pipeline). Secrets never go in `fields`.

type Level = "debug" | "info" | "warn" | "error";

/** Fields of a log line; `runId` and `toolCallId` name what the line is about. */
export interface LogFields {
  runId?: string;
  toolCallId?: string;
  [field: string]: unknown;
}

const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function threshold(): number {
  const level = process.env.LOG_LEVEL as Level | undefined;
  return ORDER[level ?? "info"] ?? ORDER.info;
}

function serializable(value: unknown): unknown {
  if (value instanceof Error) {
    return { name: value.name, message: value.message, stack: value.stack, cause: serializable(value.cause) };
  }
  return value;
}

function write(level: Level, msg: string, fields: LogFields): void {
  if (ORDER[level] < threshold()) return;
  const entries = Object.entries(fields).map(([key, value]) => [key, serializable(value)]);
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...Object.fromEntries(entries) });
  if (level === "error" || level === "warn") process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

/** A logger whose lines all carry `bound` (e.g. `{ runId }`). */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(bound: LogFields): Logger;
}

function make(bound: LogFields): Logger {
  return {
    debug: (msg, fields = {}) => write("debug", msg, { ...bound, ...fields }),
    info: (msg, fields = {}) => write("info", msg, { ...bound, ...fields }),
    warn: (msg, fields = {}) => write("warn", msg, { ...bound, ...fields }),
    error: (msg, fields = {}) => write("error", msg, { ...bound, ...fields }),
    child: (more) => make({ ...bound, ...more }),
  };
}

/** The process's logger. */
export const log: Logger = make({});
