import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { createAuthMiddleware } from "better-auth/api";
import { env } from "@/env";
import { type Database, getDb } from "@/server/db";
import { authAccounts, authSessions, authVerifications, users } from "@/server/db/schema";
import { allowedOrigins } from "@/server/http/same-origin";
import { signingKeys } from "@/server/secrets";
import { AUTH_COOKIE_PREFIX } from "./cookie";

/** The OAuth providers whose client id and secret are configured. */
export function enabledOAuthProviders(): ("github" | "google")[] {
  const providers: ("github" | "google")[] = [];
  if (env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET) providers.push("github");
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) providers.push("google");
  return providers;
}

function socialProviders() {
  return {
    ...(env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET
      ? { github: { clientId: env.GITHUB_CLIENT_ID, clientSecret: env.GITHUB_CLIENT_SECRET } }
      : {}),
    ...(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
      ? { google: { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET } }
      : {}),
  };
}

/**
 * CSRF: Better Auth refuses cookie-carrying POSTs whose Origin is not trusted; it trusts the
 * app's own origins, the same the API routes and the sync socket accept (server/http/same-origin).
 * A cross-site form still carries its foreign Origin and is refused.
 */
function createAuth(db: Database) {
  return betterAuth({
    appName: "Coauthor",
    baseURL: env.BETTER_AUTH_URL,
    // The same generated-or-configured key that signed the old session cookie.
    secret: new TextDecoder().decode(signingKeys().session),
    database: drizzleAdapter(db, {
      provider: "pg",
      // Better Auth's `user` model is our `users` table, so documents and runs keep their foreign keys.
      schema: { user: users, session: authSessions, account: authAccounts, verification: authVerifications },
    }),
    emailAndPassword: { enabled: true, minPasswordLength: 8, maxPasswordLength: 128, autoSignIn: true },
    socialProviders: socialProviders(),
    trustedOrigins: (request) => allowedOrigins(request?.headers.get("host")),
    // No cookie cache: every request reads the session row, so "sign out everywhere" is immediate.
    session: { expiresIn: 60 * 60 * 24 * 30, cookieCache: { enabled: false } },
    // Sign-in and sign-up are limited in front of Better Auth (app/api/auth: per client address as
    // TRUST_PROXY says, counted atomically where every instance sees it); its own limiter would
    // take X-Forwarded-For on trust and count per process.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: AUTH_COOKIE_PREFIX,
      useSecureCookies: env.SECURE_COOKIES === "true",
    },
    telemetry: { enabled: false },
    hooks: {
      // "Sign out everywhere" also closes the user's open sync sockets (a revoked session must not keep editing).
      after: createAuthMiddleware(async (ctx) => {
        const userId = ctx.context.session?.user.id;
        if (ctx.path !== "/revoke-sessions" || !userId) return;
        const { closeUserSockets } = await import("@/server/collab/sync-server");
        closeUserSockets(userId);
      }),
    },
  });
}

/** The configured Better Auth instance. */
export type Auth = ReturnType<typeof createAuth>;

const KEY = Symbol.for("coauthor.auth");
type Holder = typeof globalThis & { [KEY]?: Promise<Auth> };

/** The process-wide Better Auth instance (built once the database is open, shared across Next bundles). */
export function getAuth(): Promise<Auth> {
  const holder = globalThis as Holder;
  holder[KEY] ??= getDb()
    .then(createAuth)
    .catch((error: unknown) => {
      delete holder[KEY];
      throw error;
    });
  return holder[KEY];
}
