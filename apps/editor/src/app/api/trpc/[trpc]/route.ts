import { log } from "@coauthor/agent-workflow";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { apiError } from "@/server/http/errors";
import { crossSiteRefusal } from "@/server/http/same-origin";
import { createContext } from "@/server/trpc/context";
import { appRouter } from "@/server/trpc/root";

export const runtime = "nodejs";

function handler(request: Request) {
  // Mutations change state: never from a foreign page (CSRF); queries (GET) read only.
  if (request.method === "POST") {
    const crossSite = crossSiteRefusal(request);
    if (crossSite) return Promise.resolve(apiError(crossSite.status, "forbidden:trpc", crossSite.message));
  }
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
