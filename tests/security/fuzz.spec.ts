import fc from "fast-check";
import postgres from "postgres";
import { FuzzWorld, ROLES } from "../lib/fuzz/fuzz-world.ts";
import {
  type FuzzRequest,
  procedureRequests,
  routeRequests,
  validProcedureRequest,
  validRouteRequests,
  withCookie,
} from "../lib/fuzz/hostile-requests.ts";
import { hostileCookie } from "../lib/fuzz/hostile-values.ts";
import {
  type FuzzTargets,
  procedureModels,
  realSegmentValues,
  routeModels,
} from "../lib/fuzz/input-models.ts";
import { HTTP_METHODS, servedRoutes, trpcProcedures } from "../lib/fuzz/route-catalogue.ts";
import { changedPlaces } from "../lib/fuzz/storage-fingerprint.ts";
import { expect, test } from "../lib/test.ts";

// The fuzz suite (issue #13, point 9): generated hostile requests — NUL and control characters,
// lone surrogates, CR/LF, very long strings, deep nesting, huge and negative numbers, wrong types,
// duplicate keys, wrong content types, foreign origins — to every route the built app serves and
// every tRPC procedure, each sent as owner, editor, viewer, stranger and signed-out. Two
// invariants: the answer is never 5xx, and storage (every table, the data folder) is unchanged
// unless the app accepted the request. The route list and the procedures come from the app
// (route-catalogue.ts), so a new route is fuzzed without anyone adding it here.
//
// A fixed seed keeps CI reproducible; FC_SEED=random (or a number) explores, FC_RUNS sets the
// generated requests per route. On failure fast-check prints the seed and the request; it does not
// shrink it, since the server's state has moved on by then and a smaller request proves little.

// playwright.config.ts turns FC_SEED=random into one number for the whole run (every worker).
const seed = Number(process.env.FC_SEED ?? 20_261_124);
// 12 requests × 5 callers per endpoint keep the whole suite under two minutes on a 2-core machine
// (under three while other work shares it).
const numRuns = Number(process.env.FC_RUNS ?? 12);
if (!Number.isInteger(seed) || !Number.isInteger(numRuns) || numRuns < 1)
  throw new Error("FC_SEED must be an integer or `random`, FC_RUNS a positive integer");

const routes = servedRoutes();
const procedures = await trpcProcedures();
// Every endpoint gets a seed of its own, so one endpoint's cases do not repeat another's.
const endpoints = [
  ...routes.flatMap((route) => route.methods.map((method) => ({ kind: "route" as const, route, method }))),
  ...procedures.map((procedure) => ({ kind: "procedure" as const, procedure })),
].map((endpoint, index) => ({ ...endpoint, seed: seed + index }));

// Only the keys matter to the catalogue check; the values are the world's.
const NO_TARGETS: FuzzTargets = {
  documentId: "",
  doomedDocumentId: "",
  runId: "",
  doomedRunId: "",
  hookToken: "",
  toolCallId: "",
  spare: { userId: "", email: "", password: "" },
  invitationId: "",
};

let world: FuzzWorld;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  world = await FuzzWorld.start();
  console.log(`fuzz: FC_SEED=${seed} FC_RUNS=${numRuns} (reproduce a failure with both)`);
});

test.afterAll(async () => {
  console.log(
    `fuzz: ${endpoints.length} endpoints (${routes.length} routes, ${procedures.length} procedures) × ${ROLES.length} callers × ${numRuns} cases (valid ones first); ${world.sent} requests sent, ${world.accepted} accepted (2xx)`,
  );
  await world.dispose();
});

test("the route list and the procedures come from the app, and every API route, page and procedure has an input model", () => {
  // Sanity: the catalogue found the kinds of routes the suite must cover.
  const patterns = routes.map((route) => route.pattern);
  expect(patterns).toEqual(
    expect.arrayContaining(["/api/llm/agent", "/api/trpc/[trpc]", "/documents/[documentId]"]),
  );
  expect(routes.filter((route) => route.kind === "engine").length).toBeGreaterThanOrEqual(2);
  expect(procedures.map((procedure) => procedure.path)).toEqual(expect.arrayContaining(["documents.create"]));

  const routeModelKeys = Object.keys(routeModels(NO_TARGETS));
  const apiEndpoints = routes
    .filter((route) => route.kind !== "engine")
    .flatMap((route) => route.methods.map((method) => `${method} ${route.pattern}`));
  const procedureModelKeys = Object.keys(procedureModels(NO_TARGETS));
  const procedurePaths = procedures.map((procedure) => procedure.path);
  // A route or procedure without a model is fuzzed generically, but only a valid shape gets a
  // hostile field past the schema: add one in tests/lib/fuzz/input-models.ts. A model whose
  // route is gone is dead weight.
  expect({
    routesWithoutModel: apiEndpoints.filter((key) => !routeModelKeys.includes(key)),
    proceduresWithoutModel: procedurePaths.filter((path) => !procedureModelKeys.includes(path)),
    modelsWithoutRoute: routeModelKeys.filter((key) => !apiEndpoints.includes(key)),
    modelsWithoutProcedure: procedureModelKeys.filter((path) => !procedurePaths.includes(path)),
  }).toEqual({
    routesWithoutModel: [],
    proceduresWithoutModel: [],
    modelsWithoutRoute: [],
    modelsWithoutProcedure: [],
  });
});

test("the storage fingerprint sees a change to one row of any table, and only there", async () => {
  const sql = postgres(world.databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    const before = await world.storage.read();
    const { stranger } = world.callers;
    await sql`update users set name = name || '.' where id = ${stranger.userId}`;
    expect(changedPlaces(before, await world.storage.read())).toEqual(["public.users"]);
    await sql`update users set name = left(name, -1) where id = ${stranger.userId}`;
    expect(changedPlaces(before, await world.storage.read())).toEqual([]);
  } finally {
    await sql.end();
  }
});

test("methods a route does not export are refused, never 5xx, and change nothing", async () => {
  // Every route × every method it does not export × its shapes (about 900 requests), storage
  // compared once per route.
  const models = routeModels(world.targets);
  for (const route of routes.filter((route) => route.kind !== "engine")) {
    // The route's valid shapes (of any method), so the request is otherwise one it would take.
    const shapes = route.methods.flatMap((method) => models[`${method} ${route.pattern}`] ?? []);
    await world.checkChangesNothing(
      HTTP_METHODS.filter((method) => !route.methods.includes(method)).flatMap((method) =>
        validRouteRequests(method, route.pattern, shapes, realSegmentValues(world.targets)),
      ),
    );
  }
});

test("forged, tampered and malformed session cookies are refused like no session, never 5xx", async () => {
  const { targets } = world;
  const models = routeModels(targets);
  // A page, an API route, a tRPC query and mutation, and Better Auth's session lookup: the places
  // that read the session cookie.
  const requests = [
    ...validRouteRequests("GET", "/documents/[documentId]", models["GET /documents/[documentId]"] ?? [], []),
    ...validRouteRequests("POST", "/api/llm/agent", models["POST /api/llm/agent"] ?? [], []),
    ...validRouteRequests("GET", "/api/auth/[...all]", models["GET /api/auth/[...all]"] ?? [], []),
    validProcedureRequest("documents.list", "query", undefined),
    validProcedureRequest("documents.create", "mutation", procedureModels(targets)["documents.create"]),
  ];
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...requests),
      hostileCookie(world.callers.owner.cookie),
      (request, cookie) => world.check(withCookie(request, cookie), { roles: ["signed-out"] }),
    ),
    { seed, numRuns: numRuns * 5, endOnFailure: true },
  );
});

for (const endpoint of endpoints) {
  const name =
    endpoint.kind === "route"
      ? `${endpoint.method} ${endpoint.route.pattern} (${endpoint.route.kind})`
      : `tRPC ${endpoint.procedure.type} ${endpoint.procedure.path}`;
  test(`hostile requests to ${name}: never 5xx, storage unchanged unless accepted`, async () => {
    test.setTimeout(180_000);
    const { targets, origin } = world;
    let requests: fc.Arbitrary<FuzzRequest>;
    // The valid requests go first: the accepted path (which may change storage) is always taken.
    let valid: FuzzRequest[];
    let statuses: readonly number[] | undefined;
    if (endpoint.kind === "route") {
      const { route, method } = endpoint;
      const shapes = routeModels(targets)[`${method} ${route.pattern}`] ?? [];
      requests = routeRequests(method, route.pattern, shapes, realSegmentValues(targets), origin);
      valid = validRouteRequests(method, route.pattern, shapes, realSegmentValues(targets));
      // The engine's routes answer only the engine: 401 for every caller, whatever the request —
      // or an answer before the app sees it: 400 for a path that is not UTF-8 (server.mjs), 431
      // for a URL longer than Node's header limit, Next's 308 from `…/webhook/` to `…/webhook`.
      if (route.kind === "engine") statuses = [308, 400, 401, 431];
    } else {
      const { path, type } = endpoint.procedure;
      requests = procedureRequests(path, type, procedureModels(targets)[path], origin);
      valid = [validProcedureRequest(path, type, procedureModels(targets)[path])];
    }
    await fc.assert(
      fc.asyncProperty(requests, (request) => world.check(request, { statuses })),
      {
        seed: endpoint.seed,
        numRuns,
        endOnFailure: true,
        examples: valid.map((request): [FuzzRequest] => [request]),
      },
    );
  });
}
