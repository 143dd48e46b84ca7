/** A safe place to go after signing in: a path on this site, never another origin. */
export function safeReturnPath(next: string | undefined): string {
  if (!next?.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  return next;
}
