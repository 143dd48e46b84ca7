#!/usr/bin/env node
// `coauthor run --document ID "prompt" [--recipe NAME] [--suggest]`: starts an agent run as the
// writer whose access token COAUTHOR_TOKEN is, on the app at COAUTHOR_URL, prints its events as
// they come and exits with the run's outcome (run.ts: EXIT says which code means what). Ctrl+C
// stops the run on the server and prints its end; a second Ctrl+C leaves at once.
import { parseCommand } from "./args.ts";
import { readEnv } from "./env.ts";
import { EXIT, runFromScript } from "./run.ts";

const command = parseCommand(process.argv.slice(2));
const env = readEnv(process.env);
if (!command.ok) {
  process.stderr.write(`coauthor: ${command.message}\n`);
  process.exitCode = EXIT.usage;
} else if (!env.ok) {
  process.stderr.write(`coauthor: ${env.message}\n`);
  process.exitCode = EXIT.usage;
} else {
  const stop = new AbortController();
  process.once("SIGINT", () => {
    stop.abort();
    process.once("SIGINT", () => process.exit(130));
  });
  try {
    const outcome = await runFromScript(
      env.env,
      command.command,
      (text) => process.stdout.write(text),
      stop.signal,
    );
    if (outcome.message) process.stderr.write(`coauthor: ${outcome.message}\n`);
    process.exitCode = outcome.exitCode;
  } catch (error) {
    // The app could not be reached, or answered something that is not the protocol.
    process.stderr.write(`coauthor: ${env.env.url}: ${describeError(error)}\n`);
    process.exitCode = EXIT.notDone;
  }
}

/** An error and its cause (fetch says only "fetch failed"; its cause says why). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}
