import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { PAGE_TITLE_TEMPLATE } from "@/components/page-title";
import { TRPCReactProvider } from "@/trpc/react";
import "./globals.css";

export const metadata: Metadata = {
  // Each page names what it shows: "<title> — Coauthor".
  title: { default: "Coauthor", template: PAGE_TITLE_TEMPLATE },
  description: "An AI coauthor inside your document editor",
  // No icon file yet: an empty data URL keeps browsers from requesting /favicon.ico.
  icons: { icon: "data:," },
};

/** Root layout: one tRPC / React Query provider for every page. */
export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request, so its scripts carry that request's CSP nonce (the proxy sets
  // it). The app's pages read the session anyway; this also covers the 404 page, which Next would
  // otherwise prerender once at build time with scripts no nonce allows.
  await connection();
  return (
    <html lang="en">
      <body>
        <TRPCReactProvider>{children}</TRPCReactProvider>
      </body>
    </html>
  );
}
