import { log } from "@coauthor/agent-workflow";
import { parseClientJson } from "@coauthor/types";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { apiError, readJsonBody } from "@/server/http/errors";
import { createContext } from "@/server/trpc/context";
import { appRouter } from "@/server/trpc/root";

export const runtime = "nodejs";

/** Largest tRPC request body read (a document imported as Markdown, with room to spare). */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

/**
 * The boundary rule for every tRPC input, before tRPC parses it: bounded depth and size, no NUL or
 * lone surrogate (see parseClientJson). Returns the request to hand on, or the refusal.
 */
async function checkedRequest(request: Request): Promise<Request | Response> {
  if (request.method === "POST") {
    // Mutations change state: readJsonBody also refuses a foreign page's request (CSRF).
    const body = await readJsonBody(request, "trpc", MAX_BODY_BYTES);
    if (!body.ok) return body.response;
    // The body has been read; tRPC gets the same text.
    return new Request(request.url, { method: "POST", headers: request.headers, body: body.text });
  }
  const input = new URL(request.url).searchParams.get("input");
  if (input !== null) {
    const parsed = parseClientJson(input, "input");
    if (!parsed.ok)
      return apiError(400, "bad_request:trpc", `${parsed.problem.path} ${parsed.problem.message}`);
  }
  return request;
}

async function handler(incoming: Request): Promise<Response> {
  const request = await checkedRequest(incoming);
  if (request instanceof Response) return request;
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: () => createContext(request),
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR")
        log.error("trpc procedure failed", { path: path ?? "?", error: error.cause ?? error });
    },
  });
}

export { handler as GET, handler as POST };
