import type { TRPCContext } from "@coauthor/agent-workflow/trpc";
import { sessionFromRequest } from "@/server/auth/session";
import { ensureUser } from "@/server/documents";

/** Builds the tRPC context of an HTTP request from its session cookie. */
export async function createContext(request: Request): Promise<TRPCContext> {
  const session = await sessionFromRequest(request);
  if (session) await ensureUser(session.userId);
  return { userId: session?.userId ?? null };
}
