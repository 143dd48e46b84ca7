// What the fuzz suite fuzzes, found from the app itself so a new route or procedure is fuzzed
// without anyone listing it: the route files under apps/editor/src/app (path from the folders,
// methods from the exported handler names), the routes the built app serves (its
// app-path-routes-manifest.json: pages, and the workflow engine's routes, which the Workflow
// DevKit generates at build time and have no file in src/app), and the tRPC app router's
// procedures (read from `appRouter._def`).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { z } from "zod";

const APP_DIR = resolve(import.meta.dirname, "../../../apps/editor");
const SOURCE_APP_DIR = join(APP_DIR, "src/app");
const ROUTES_MANIFEST = join(APP_DIR, ".next/app-path-routes-manifest.json");
/** The workflow engine's routes: generated, and only for the engine (the proxy checks its credential). */
export const ENGINE_ROUTE_PREFIX = "/.well-known/workflow/";

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** One served path pattern, e.g. `/api/llm/agent/[runId]/stream`, and what it is. */
export interface RouteEntry {
  /** Path with Next's dynamic segments as written: `[runId]`, `[...all]`. */
  pattern: string;
  kind: "api" | "engine" | "page";
  /** Methods the route file exports (pages: GET). */
  methods: HttpMethod[];
}

/** The methods a route file exports: `export async function POST`, `export { handler as GET }`. */
export function exportedMethods(source: string): HttpMethod[] {
  const found = new Set<HttpMethod>();
  for (const method of HTTP_METHODS) {
    const declared = new RegExp(`export\\s+(async\\s+)?(function|const|let)\\s+${method}\\b`);
    const reexported = new RegExp(`export\\s*\\{[^}]*\\bas\\s+${method}\\b[^}]*\\}`);
    const named = new RegExp(`export\\s*\\{[^}]*(^|[\\s,{])${method}\\s*[,}][^}]*`);
    if (declared.test(source) || reexported.test(source) || named.test(source)) found.add(method);
  }
  return [...found];
}

/** Every `route.ts` under src/app, with its path pattern and exported methods. */
export function sourceRoutes(): RouteEntry[] {
  const routes: RouteEntry[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === "route.ts") {
        const folders = relative(SOURCE_APP_DIR, dir)
          .split(sep)
          // Route groups `(name)` and private folders `_name` are not part of the URL.
          .filter((folder) => folder !== "" && !/^\(.*\)$/.test(folder));
        const pattern = `/${folders.join("/")}`;
        routes.push({
          pattern,
          kind: pattern.startsWith(ENGINE_ROUTE_PREFIX) ? "engine" : "api",
          methods: exportedMethods(readFileSync(path, "utf8")),
        });
      }
    }
  };
  walk(SOURCE_APP_DIR);
  return routes.sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/**
 * The routes the built app serves (its manifest), classified: route files from src/app; engine
 * routes (generated, so their methods are unknown: every method is tried); pages. Fails when the
 * build is missing or older than a route file (a stale build would hide the new route).
 */
export function servedRoutes(): RouteEntry[] {
  if (!existsSync(ROUTES_MANIFEST))
    throw new Error(`no build at ${ROUTES_MANIFEST}: run \`pnpm build\` in apps/editor first`);
  const manifest = z.record(z.string(), z.string()).parse(JSON.parse(readFileSync(ROUTES_MANIFEST, "utf8")));
  const sources = new Map(sourceRoutes().map((route) => [route.pattern, route]));
  const served: RouteEntry[] = [];
  for (const [entry, pattern] of Object.entries(manifest)) {
    // Next's own error pages (`/_not-found`, `/_global-error`) are reached through other paths.
    if (pattern.startsWith("/_")) continue;
    const source = sources.get(pattern);
    if (source) {
      served.push(source);
      sources.delete(pattern);
    } else if (entry.endsWith("/page")) {
      served.push({ pattern, kind: "page", methods: ["GET"] });
    } else if (pattern.startsWith(ENGINE_ROUTE_PREFIX)) {
      served.push({ pattern, kind: "engine", methods: ["GET", "POST", "PUT", "DELETE"] });
    } else {
      throw new Error(`${pattern} is served but has no route file in src/app and is no engine route`);
    }
  }
  if (sources.size > 0)
    throw new Error(`the build is older than ${[...sources.keys()].join(", ")}: rebuild apps/editor`);
  return served.sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/** A tRPC procedure of the app router. */
export interface ProcedureEntry {
  path: string;
  type: "query" | "mutation" | "subscription";
}

// A procedure is a function carrying its definition in `_def`.
const procedureSchema = z.custom<{ _def: unknown }>(
  (value) => typeof value === "function" && "_def" in value,
  "a tRPC procedure",
);
const procedureDefSchema = z.object({ type: z.enum(["query", "mutation", "subscription"]) });
const routerModuleSchema = z.object({
  appRouter: z.object({ _def: z.object({ procedures: z.record(z.string(), procedureSchema) }) }),
});

/** The app router's procedures, read from the router itself (`appRouter._def.procedures`). */
export async function trpcProcedures(): Promise<ProcedureEntry[]> {
  // A computed specifier: the app's module is loaded at run time (Playwright resolves its `@/`
  // imports with the app's tsconfig), and the tests' typecheck does not compile the app's source
  // with the tests' settings.
  const specifier = join(APP_DIR, "src/server/trpc/root.ts");
  const module = routerModuleSchema.parse(await import(specifier));
  return Object.entries(module.appRouter._def.procedures)
    .map(([path, procedure]) => ({ path, type: procedureDefSchema.parse(procedure._def).type }))
    .sort((a, b) => a.path.localeCompare(b.path));
}
