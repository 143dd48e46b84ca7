import { createCallerFactory, createTRPCRouter } from "./init";
import { assistantRouter } from "./routers/assistant";
import { documentsRouter } from "./routers/documents";
import { llmRouter } from "./routers/llm";
import { recipesRouter } from "./routers/recipes";

/** The app's tRPC router. */
export const appRouter = createTRPCRouter({
  assistant: createTRPCRouter(assistantRouter),
  documents: createTRPCRouter(documentsRouter),
  llm: createTRPCRouter(llmRouter),
  recipes: createTRPCRouter(recipesRouter),
});

export type AppRouter = typeof appRouter;

/** Server-side caller (no HTTP). */
export const createCaller = createCallerFactory(appRouter);
