import { sessionFromRequest } from "@/server/auth/session";
import type { TRPCContext } from "./init";

/** Builds the tRPC context of an HTTP request from its session cookie. */
export async function createContext(request: Request): Promise<TRPCContext> {
  const session = await sessionFromRequest(request);
  return { userId: session?.userId ?? null };
}
