import type { Metadata } from "next";
import { AccountMenu } from "@/components/auth/account-menu";
import { DocumentList } from "@/components/documents/document-list";
import { pageTitle } from "@/components/page-title";
import { requirePageUser } from "@/server/auth/page-session";

export const dynamic = "force-dynamic";
// The root segment's own title: the layout's template applies to the pages below it only.
export const metadata: Metadata = { title: { absolute: pageTitle("Documents") } };

/** Home: the documents the user may open. */
export default async function HomePage() {
  const user = await requirePageUser("/");
  return (
    <main className="home">
      <header className="home-header">
        <h1>Coauthor</h1>
        <p className="muted">Your documents, with an AI coauthor beside each one.</p>
        <AccountMenu name={user.name} email={user.email} emailVerified={user.emailVerified} />
      </header>
      <DocumentList />
    </main>
  );
}
