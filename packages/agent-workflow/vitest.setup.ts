// @workflow/builders 4.1.x bundles `builtin-modules` into the step bundle as a
// bare JSON import, which Node 22+ refuses without `with { type: "json" }`
// (ERR_IMPORT_ATTRIBUTE_MISSING). The bundle is loaded lazily on the first
// step, so adding the attribute here, after it is built, is enough.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

for (const file of ["steps.mjs", "workflows.mjs"]) {
  const path = join(import.meta.dirname, ".workflow-vitest", file);
  if (!existsSync(path)) continue;
  const source = readFileSync(path, "utf8");
  const fixed = source.replace(/^(import \w+ from "[^"]+\.json");$/gm, '$1 with { type: "json" };');
  if (fixed !== source) writeFileSync(path, fixed);
}
