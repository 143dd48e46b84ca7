import type { Metadata } from "next";
import Link from "next/link";

import { pageTitle } from "@/components/page-title";

// The root segment's own title: the layout's template applies to the pages below it only.
export const metadata: Metadata = { title: { absolute: pageTitle("Page not found") } };

/**
 * The 404 page. Next's built-in one styles itself with inline style attributes and a <style>
 * element without the nonce, which the pages' CSP refuses; this one uses the app's stylesheet.
 */
export default function NotFound() {
  return (
    <main className="home">
      <h1>Page not found</h1>
      <p className="muted">There is nothing at this address.</p>
      <Link href="/">Back to your documents</Link>
    </main>
  );
}
