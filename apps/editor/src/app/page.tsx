import { DocumentList } from "@/components/documents/document-list";

/** Home: the user's documents. */
export default function HomePage() {
  return (
    <main className="home">
      <header className="home-header">
        <h1>Coauthor</h1>
        <p className="muted">Your documents, with an AI coauthor beside each one.</p>
      </header>
      <DocumentList />
    </main>
  );
}
