import { createCallerFactory, createTRPCRouter } from "./init.ts";
import { llmRouter } from "./llm-router.ts";

export {
  createCallerFactory,
  createTRPCRouter,
  protectedProcedure,
  publicProcedure,
  type TRPCContext,
} from "./init.ts";
export { agentSystemPrompt, llmRouter, selectTools } from "./llm-router.ts";

/** The agent's own router, used by the planner step through a server caller. */
export const agentRouter = createTRPCRouter({ llm: createTRPCRouter(llmRouter) });
/** Server-side caller of the agent router (no HTTP). */
export const createAgentCaller = createCallerFactory(agentRouter);
