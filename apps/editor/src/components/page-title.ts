/** How every tab is titled: "<what is open> — Coauthor" (Next's metadata template uses the same). */
export const PAGE_TITLE_TEMPLATE = "%s — Coauthor";

/** The tab title for a page showing `name` (a document's title, "Sign in"…). */
export function pageTitle(name: string): string {
  return PAGE_TITLE_TEMPLATE.replace("%s", name);
}
