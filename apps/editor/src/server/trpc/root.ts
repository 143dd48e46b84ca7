import { createCallerFactory, createTRPCRouter } from "./init";
import { accessTokensRouter } from "./routers/access-tokens";
import { assistantRouter } from "./routers/assistant";
import { commentsRouter } from "./routers/comments";
import { documentsRouter } from "./routers/documents";
import { llmRouter } from "./routers/llm";
import { recipesRouter } from "./routers/recipes";
import { versionsRouter } from "./routers/versions";

/** The app's tRPC router. */
export const appRouter = createTRPCRouter({
  accessTokens: createTRPCRouter(accessTokensRouter),
  assistant: createTRPCRouter(assistantRouter),
  comments: createTRPCRouter(commentsRouter),
  documents: createTRPCRouter(documentsRouter),
  llm: createTRPCRouter(llmRouter),
  recipes: createTRPCRouter(recipesRouter),
  versions: createTRPCRouter(versionsRouter),
});

export type AppRouter = typeof appRouter;

/** Server-side caller (no HTTP). */
export const createCaller = createCallerFactory(appRouter);
