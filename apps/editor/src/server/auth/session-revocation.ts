// What else ends when a user's sessions are revoked ("sign out everywhere"): their open sync
// sockets. Auth's hook reports the revocation here and the server start (instrumentation.ts) says
// what follows, so auth does not import the sync server, which imports auth to check sessions.

/** What a revocation of all of a user's sessions ends besides the sessions. */
export type SessionsRevokedListener = (userId: string) => void;

// On globalThis: Next bundles the auth route and the server start apart.
const KEY = Symbol.for("coauthor.sessions-revoked");
type Holder = typeof globalThis & { [KEY]?: SessionsRevokedListener };

/** Sets what a revocation of all of a user's sessions ends (once, at server start). */
export function onSessionsRevoked(listener: SessionsRevokedListener): void {
  (globalThis as Holder)[KEY] = listener;
}

/** Reports that every session of `userId` was revoked. */
export function sessionsRevoked(userId: string): void {
  (globalThis as Holder)[KEY]?.(userId);
}
