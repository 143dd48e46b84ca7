/** An origin nothing can share: a return path is resolved against it and must stay on it. */
const BASE = "https://coauthor.invalid";

/**
 * A safe place to go after signing in: a path on this site, never another origin. Browsers
 * ignore tabs and line breaks in URLs and read a backslash as a slash, so `/\tevil.example/` or
 * `/\evil.example` would become another site's address: anything with a control character or a
 * backslash is refused outright; the rest is resolved with `URL` and must keep this site's origin.
 */
export function safeReturnPath(next: string | undefined): string {
  if (typeof next !== "string" || !next.startsWith("/")) return "/";
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
