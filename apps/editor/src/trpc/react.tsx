"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpLink, splitLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { type ReactNode, useState } from "react";
import type { AppRouter } from "@/server/trpc/root";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

const TRPC_URL = "/api/trpc";

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { staleTime: 30_000, retry: 1 } },
  });
}

function makeTRPCClient() {
  return createTRPCClient<AppRouter>({
    links: [
      // A call made while the page unloads (last autosave) must outlive the page: send it alone
      // with `keepalive`, which the batching link cannot do per call.
      splitLink({
        condition: (op) => op.context.keepalive === true,
        true: httpLink({ url: TRPC_URL, fetch: (url, init) => fetch(url, { ...init, keepalive: true }) }),
        false: httpBatchLink({ url: TRPC_URL }),
      }),
    ],
  });
}

/** Provides the React Query client and the typed tRPC client to the app. */
export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(makeTRPCClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
