import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { env } from "@/env";
import { dataDir } from "./data-dir";

// The app's signing keys. The agent package gets the hook-token key from the app at server start
// (`configureAgent` in instrumentation.ts) and reads no file or variable for it.

const secretsFileSchema = z.object({
  sessionSecret: z.string().min(43),
  hookTokenSecret: z.string().min(43),
});

let cached: { session: Uint8Array; hookToken: Uint8Array } | undefined;

/**
 * The signing keys: from env when set, otherwise generated once (256 bits
 * each) into `<data dir>/secrets.json` so sessions and tokens survive restarts.
 */
export function signingKeys(): { session: Uint8Array; hookToken: Uint8Array } {
  if (cached) return cached;
  let file: z.infer<typeof secretsFileSchema> | undefined;
  if (!env.SESSION_SECRET || !env.HOOK_TOKEN_SECRET) file = readOrCreateSecretsFile();
  const session = env.SESSION_SECRET ?? file?.sessionSecret;
  const hookToken = env.HOOK_TOKEN_SECRET ?? file?.hookTokenSecret;
  if (!session || !hookToken) throw new Error("signing keys are missing");
  const encoder = new TextEncoder();
  cached = { session: encoder.encode(session), hookToken: encoder.encode(hookToken) };
  return cached;
}

function readOrCreateSecretsFile(): z.infer<typeof secretsFileSchema> {
  const dir = dataDir();
  const path = join(dir, "secrets.json");
  try {
    return secretsFileSchema.parse(JSON.parse(readFileSync(path, "utf8")));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new Error(`${path} is unreadable or invalid; fix or delete it: ${(error as Error).message}`);
    }
  }
  mkdirSync(dir, { recursive: true });
  const fresh = {
    sessionSecret: randomBytes(32).toString("base64url"),
    hookTokenSecret: randomBytes(32).toString("base64url"),
  };
  try {
    // "wx": if another process created it first, use theirs.
    writeFileSync(path, JSON.stringify(fresh), { mode: 0o600, flag: "wx" });
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return secretsFileSchema.parse(JSON.parse(readFileSync(path, "utf8")));
  }
}
