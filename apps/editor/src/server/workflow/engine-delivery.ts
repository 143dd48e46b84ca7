import { createHmac, timingSafeEqual } from "node:crypto";
import { apiError } from "@/server/http/errors";
import { signingKeys } from "@/server/secrets";

/**
 * The Workflow DevKit engine's own HTTP endpoints (queue deliveries to `flow` and `step`, and
 * `webhook`). They answer only requests that prove they come from the engine.
 *
 * How deliveries reach them:
 * - Local world (the default): never over HTTP. instrumentation.ts registers the generated
 *   handlers with the world's queue, which calls them in-process.
 * - Postgres world (several instances): each instance's job runner (graphile-worker) takes a job
 *   from the shared database and POSTs it to its own instance over loopback HTTP, to
 *   `WORKFLOW_LOCAL_BASE_URL` (default `http://localhost:$PORT`). instrumentation.ts puts the
 *   engine credential into that URL's user-info; the world's transport (`node:http`) sends it as
 *   `Authorization: Basic`. The credential lives only in the processes, never in a queued job, so
 *   every delivery (also the runs the world re-enqueues at start) carries it.
 * Nobody else may call these routes: a forged delivery naming a live run with a high attempt
 * count would make the engine fail that run.
 */
export const ENGINE_ROUTE_PREFIX = "/.well-known/workflow/";

const ENGINE_USER = "workflow-engine";
let cachedPassword: string | undefined;

/** The engine's password: derived from the hook-token key, so every instance of a deployment agrees. */
function enginePassword(): string {
  cachedPassword ??= createHmac("sha256", signingKeys().hookToken)
    .update("coauthor:workflow-engine-delivery:v1")
    .digest("base64url");
  return cachedPassword;
}

/** `baseUrl` (where the engine delivers) with the engine's credential as its user-info. */
export function engineDeliveryBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.username = ENGINE_USER;
  url.password = enginePassword();
  return url.toString();
}

/** Whether a request to an engine route carries the engine's credential (compared in constant time). */
export function isEngineDelivery(headers: Headers): boolean {
  const authorization = headers.get("authorization") ?? "";
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(authorization);
  if (!match?.[1]) return false;
  const presented = Buffer.from(match[1], "base64");
  const expected = Buffer.from(`${ENGINE_USER}:${enginePassword()}`);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** The answer to a request on an engine route without the engine's credential. */
export function engineRefusal(): Response {
  return apiError(401, "unauthorized:engine", "only the workflow engine may call this route");
}

/** An engine route's handler that answers only the engine (the proxy's check, for direct routes). */
export function engineOnly(handler: (request: Request) => Promise<Response>) {
  return (request: Request): Promise<Response> =>
    isEngineDelivery(request.headers) ? handler(request) : Promise.resolve(engineRefusal());
}
