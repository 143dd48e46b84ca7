// Reads the test server's generated signing keys from its data folder, so
// tests can mint tokens the server would accept (expired, for other
// documents, …) and prove each check refuses them.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sharedServerDataDir } from "./shared-server.ts";

/** The hook-token key of the server under test. */
export function serverHookTokenKey(): Uint8Array {
  const dir = sharedServerDataDir();
  const secrets = JSON.parse(readFileSync(join(dir, "secrets.json"), "utf8")) as { hookTokenSecret: string };
  return new TextEncoder().encode(secrets.hookTokenSecret);
}

/**
 * The `Authorization` header of the server's own engine deliveries (derived from its hook-token key
 * the way server/workflow/engine-delivery.ts does), so a test can show a delivery it refuses
 * without it would have been taken with it.
 */
export function serverEngineAuthorization(): string {
  const password = createHmac("sha256", serverHookTokenKey())
    .update("coauthor:workflow-engine-delivery:v1")
    .digest("base64url");
  return `Basic ${Buffer.from(`workflow-engine:${password}`).toString("base64")}`;
}
