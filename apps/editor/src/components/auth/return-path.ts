/** An origin nothing can share: a return path is resolved against it and must stay on it. */
const BASE = "https://coauthor.invalid";

/**
 * Longest return path (percent-encoded) a redirect to sign-in carries. The path is copied into
 * the redirect's Location header, and a Location of unbounded length breaks clients and proxies
 * (their header buffers: Node's fetch refuses the answer, nginx answers 502); a longer one
 * returns to `/` instead.
 */
export const MAX_RETURN_PATH_CHARS = 2_048;

/** The query of a redirect to sign-in that returns to `returnTo` afterwards (none when it is too long to carry). */
export function returnQuery(returnTo: string): string {
  const encoded = encodeURIComponent(returnTo);
  return encoded.length <= MAX_RETURN_PATH_CHARS ? `?next=${encoded}` : "";
}

/**
 * A safe place to go after signing in: a path on this site, never another origin. Browsers
 * ignore tabs and line breaks in URLs and read a backslash as a slash, so `/\tevil.example/` or
 * `/\evil.example` would become another site's address: anything with a control character or a
 * backslash is refused outright; the rest is resolved with `URL` and must keep this site's origin.
 */
export function safeReturnPath(next: string | undefined): string {
  if (typeof next !== "string" || !next.startsWith("/") || next.length > MAX_RETURN_PATH_CHARS) return "/";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return "/";
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BASE) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}
