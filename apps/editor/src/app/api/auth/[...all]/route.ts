import { getAuth } from "@/server/auth/auth";

export const runtime = "nodejs";

/** Better Auth's endpoints: sign-up, sign-in (email, OAuth), sign-out, sessions. */
async function handler(request: Request): Promise<Response> {
  const auth = await getAuth();
  return auth.handler(request);
}

export { handler as GET, handler as POST };
