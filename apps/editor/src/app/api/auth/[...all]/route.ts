import { getAuth } from "@/server/auth/auth";
import { clientAddress } from "@/server/http/client-address";
import { rateLimit } from "@/server/http/rate-limit";

export const runtime = "nodejs";

// Password guessing, sign-up floods and mail floods (reset and verification links): limited per
// client address (TRUST_PROXY decides which).
const LIMITED_PATHS = [
  "/api/auth/sign-in/",
  "/api/auth/sign-up/",
  "/api/auth/request-password-reset",
  "/api/auth/send-verification-email",
];

/** Better Auth's endpoints: sign-up, sign-in (email, OAuth), sign-out, sessions. */
async function handler(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (LIMITED_PATHS.some((prefix) => pathname.startsWith(prefix))) {
    const limited = await rateLimit(clientAddress(request.headers), "auth");
    if (limited) return limited;
  }
  const auth = await getAuth();
  return auth.handler(request);
}

export { handler as GET, handler as POST };
