import type { Metadata } from "next";
import type { ReactNode } from "react";
import { TRPCReactProvider } from "@/trpc/react";
import "./globals.css";

export const metadata: Metadata = {
  title: "Coauthor",
  description: "An AI coauthor inside your document editor",
  // No icon file yet: an empty data URL keeps browsers from requesting /favicon.ico.
  icons: { icon: "data:," },
};

/** Root layout: one tRPC / React Query provider for every page. */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <TRPCReactProvider>{children}</TRPCReactProvider>
      </body>
    </html>
  );
}
