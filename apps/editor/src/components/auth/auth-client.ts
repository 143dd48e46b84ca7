import { createAuthClient } from "better-auth/react";

/** Better Auth's browser client (same origin, `/api/auth`). */
export const authClient = createAuthClient();
