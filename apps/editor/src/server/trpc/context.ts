import type { TRPCContext } from "@coauthor/agent-workflow/trpc";
import { sessionFromRequest } from "@/server/auth/session";

/** Builds the tRPC context of an HTTP request from its session cookie. */
export async function createContext(request: Request): Promise<TRPCContext> {
  const session = await sessionFromRequest(request);
  return { userId: session?.userId ?? null };
}
