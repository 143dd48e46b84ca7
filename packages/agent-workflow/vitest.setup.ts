import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { configureHookTokenKey } from "./src/hook-token-key.ts";

// @workflow/builders 4.1.x bundles `builtin-modules` into the step bundle as a
// bare JSON import, which Node 22+ refuses without `with { type: "json" }`
// (ERR_IMPORT_ATTRIBUTE_MISSING). The bundle is loaded lazily on the first
// step, so adding the attribute here, after it is built, is enough.
for (const file of ["steps.mjs", "workflows.mjs"]) {
  const path = join(import.meta.dirname, ".workflow-vitest", file);
  if (!existsSync(path)) continue;
  const source = readFileSync(path, "utf8");
  const fixed = source.replace(/^(import \w+ from "[^"]+\.json");$/gm, '$1 with { type: "json" };');
  if (fixed !== source) writeFileSync(path, fixed);
}

// What the app hands in at server start (configureAgent): here a 256-bit test key, never used
// outside tests. On globalThis, so the workflow's step bundle signs with it too.
configureHookTokenKey(new TextEncoder().encode("test-hook-token-secret-0123456789abcdefghijklmnop"));
