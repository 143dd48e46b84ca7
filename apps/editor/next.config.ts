import type { NextConfig } from "next";
import { withWorkflow } from "workflow/next";

const nextConfig: NextConfig = {
  transpilePackages: ["@coauthor/agent-workflow", "@coauthor/tools", "@coauthor/types"],
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  poweredByHeader: false,
  typescript: {
    // `pnpm typecheck` runs tsc over the whole workspace; no second pass in the build.
    ignoreBuildErrors: true,
  },
};

export default withWorkflow(nextConfig);
