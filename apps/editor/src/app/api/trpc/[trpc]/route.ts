import { log } from "@coauthor/agent-workflow";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { createContext } from "@/server/trpc/context";
import { appRouter } from "@/server/trpc/root";

export const runtime = "nodejs";

function handler(request: Request) {
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
