import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { createAuthMiddleware } from "better-auth/api";
import { env } from "@/env";
import { type Database, getDb } from "@/server/db";
import { acceptInvitations } from "@/server/document-invitations";
import { allowedOrigins } from "@/server/http/same-origin";
import { sendLinkMail } from "@/server/mail/mail";
import { signingKeys } from "@/server/secrets";
import { AUTH_COOKIE_PREFIX } from "./cookie";
import { sessionsRevoked } from "./session-revocation";
import { sessionStorage } from "./session-storage";

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
      // The tables are the database's own objects: Next bundles this module apart from the one that
      // opened the database, and the adapter finds a table's relations (joins) by identity.
      schema: {
        user: db._.fullSchema.users,
        session: db._.fullSchema.authSessions,
        account: db._.fullSchema.authAccounts,
        verification: db._.fullSchema.authVerifications,
      },
    }),
    // Signing in does not wait for verification (the app is usable at once); what a verified
    // email unlocks is the documents it was invited to (server/document-invitations.ts).
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: true,
      // A reset password ends every session: whoever knew the old one is signed out.
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: ({ user, url }) =>
        sendLinkMail({
          to: user.email,
          subject: "Reset your Coauthor password",
          intro: "Open this link to choose a new password (it works once, for an hour).",
          link: url,
        }),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      sendVerificationEmail: ({ user, url }) =>
        sendLinkMail({
          to: user.email,
          subject: "Verify your email for Coauthor",
          intro: "Open this link to verify your email address.",
          link: url,
        }),
      afterEmailVerification: async (user) => {
        await acceptInvitations(user);
      },
    },
    socialProviders: socialProviders(),
    trustedOrigins: (request) => allowedOrigins(request?.headers.get("host")),
    // No cookie cache: a sign-out must end the session at once, everywhere. On the embedded
    // database the session is read from this process's memory instead (session-storage.ts), which
    // a sign-out clears with the database rows; the database keeps every session and verification
    // value, so a restart loses neither.
    secondaryStorage: sessionStorage(),
    session: { expiresIn: 60 * 60 * 24 * 30, cookieCache: { enabled: false }, storeSessionInDatabase: true },
    verification: { storeInDatabase: true },
    // Sign-in and sign-up are limited in front of Better Auth (app/api/auth: per client address as
    // TRUST_PROXY says, counted atomically where every instance sees it); its own limiter would
    // take X-Forwarded-For on trust and count per process.
    rateLimit: { enabled: false },
    advanced: {
      // A session is read with its user in one statement (relations in db/schema/auth.ts).
      database: { joins: true },
      cookiePrefix: AUTH_COOKIE_PREFIX,
      useSecureCookies: env.SECURE_COOKIES === "true",
    },
    telemetry: { enabled: false },
    hooks: {
      // "Sign out everywhere" also closes the user's open sync sockets (a revoked session must not keep
      // editing): reported to what the server start set (session-revocation.ts).
      after: createAuthMiddleware(async (ctx) => {
        // Any new session (password or OAuth sign-in) of an already verified email also accepts
        // the invitations sent since; an unverified one gets nothing (acceptInvitations checks).
        const signedIn = ctx.context.newSession?.user;
        if (signedIn) await acceptInvitations(signedIn);
        const userId = ctx.context.session?.user.id;
        if (ctx.path !== "/revoke-sessions" || !userId) return;
        sessionsRevoked(userId);
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
