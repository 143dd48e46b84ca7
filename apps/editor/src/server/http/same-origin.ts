import { env } from "@/env";

/**
 * The Origins the app answers state-changing requests and sync sockets from: BETTER_AUTH_URL's,
 * or else the origin of the Host the request named (the app answers on whatever host it is
 * reached by: localhost, a LAN address).
 */
export function allowedOrigins(host: string | null | undefined): string[] {
  if (env.BETTER_AUTH_URL) return [new URL(env.BETTER_AUTH_URL).origin];
  if (!host) return [];
  return env.SECURE_COOKIES === "true" ? [`https://${host}`] : [`http://${host}`, `https://${host}`];
}

/**
 * Why a state-changing request cannot be one a foreign page made the browser send (CSRF), or
 * null: its body must be declared JSON (a cross-site form or a "simple" fetch cannot say so
 * without a preflight), and an Origin, when the browser sends one, must be the app's own.
 */
export function crossSiteRefusal(request: Request): { status: 403 | 415; message: string } | null {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json")
    return { status: 415, message: "the body must be sent as application/json" };
  const origin = request.headers.get("origin");
  if (origin !== null && !allowedOrigins(request.headers.get("host")).includes(origin)) {
    return { status: 403, message: "cross-site request refused" };
  }
  return null;
}
