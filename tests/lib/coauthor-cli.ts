// Runs the `coauthor` CLI (packages/cli) as a script would: its own process, the app's address and
// an access token in its environment. Also makes tokens the way the account page does.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { PROTOCOL_VERSION, PROTOCOL_VERSION_HEADER } from "@coauthor/types";
import type { CoauthorClient } from "./coauthor-client.ts";

const CLI = fileURLToPath(new URL("../../packages/cli/src/cli.ts", import.meta.url));

/** What the CLI printed and how it exited. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `coauthor <args>` against `url` with `token` and waits for it to exit. With
 * `interruptWhen`, sends it SIGINT (a Ctrl+C) once, when what it printed first satisfies it.
 */
export function runCli(
  url: string,
  token: string,
  args: string[],
  options: { interruptWhen?: (stdout: string) => boolean } = {},
): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, COAUTHOR_URL: url, COAUTHOR_TOKEN: token },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let interrupted = false;
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!interrupted && options.interruptWhen?.(stdout)) {
      interrupted = true;
      child.kill("SIGINT");
    }
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A made token and its id, as `accessTokens.create` answers. */
export interface MadeToken {
  token: string;
  summary: { id: string; name: string; prefix: string };
}

/** Makes an access token for `client`'s account (over tRPC, with its session). */
export function makeToken(client: CoauthorClient, name = "Script", expiresInDays = 30): Promise<MadeToken> {
  return client.trpc<MadeToken>("accessTokens.create", { name, expiresInDays });
}

/** Headers of a request that carries `token` and no session (and, as the CLI, the protocol version). */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, [PROTOCOL_VERSION_HEADER]: PROTOCOL_VERSION };
}
