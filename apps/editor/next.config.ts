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
