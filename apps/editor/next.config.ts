import type { NextConfig } from "next";
import { withWorkflow } from "workflow/next";

const nextConfig: NextConfig = {
  transpilePackages: ["@coauthor/agent-workflow", "@coauthor/tools", "@coauthor/types"],
  // yjs must exist once per process (Yjs checks constructors): the sync server and the routes share it.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "postgres",
    "yjs",
    "@hocuspocus/server",
    "@hocuspocus/extension-redis",
    "ioredis",
    "ws",
  ],
  poweredByHeader: false,
  // Defaults a security review expects on every response. (A script CSP with nonces is not here
  // yet: see issue 13.)
  headers: async () => [
    {
      source: "/:path*",
      headers: [
        { key: "X-Content-Type-Options", value: "nosniff" },
        { key: "X-Frame-Options", value: "DENY" },
        {
          key: "Content-Security-Policy",
          value: "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
        },
        { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
      ],
    },
  ],
  typescript: {
    // `pnpm typecheck` runs tsc over the whole workspace; no second pass in the build.
    ignoreBuildErrors: true,
  },
};

// withWorkflow() points the local world at .next/workflow-data unless a world
// is named, and `next build` empties .next/: keep runs where start.mjs put them.
const workflowDataDir = process.env.WORKFLOW_LOCAL_DATA_DIR;
const config = withWorkflow(nextConfig);
if (workflowDataDir) process.env.WORKFLOW_LOCAL_DATA_DIR = workflowDataDir;

export default config;
