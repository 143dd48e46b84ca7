import type { NextConfig } from "next";
import { withWorkflow } from "workflow/next";
import { NON_DOCUMENT_POLICY, STATIC_SECURITY_HEADERS } from "./src/server/http/security-headers";

// The benchmark's peer (the AI SDK's WorkflowAgent, src/workflows/bench-peer) is built only into
// a build of its own: every workflow replay evaluates the whole workflow bundle, and the peer's
// (the AI SDK with its dependencies) would make it ten times larger, so slow every run of the
// product. Its routes are `route.peer.ts`, which only that build takes as routes.
const peerBuild = process.env.COAUTHOR_BENCH_PEER_BUILD === "1";

const nextConfig: NextConfig = {
  distDir: peerBuild ? ".next-peer" : ".next",
  pageExtensions: peerBuild ? ["peer.ts", "tsx", "ts", "jsx", "js"] : ["tsx", "ts", "jsx", "js"],
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
    // Made by instrumentation.ts as Node loads it (pg, graphile-worker), the one copy the engine uses.
    "@workflow/world-postgres",
    // One metrics registry per process, and the tracing SDK as Node loads it.
    "prom-client",
    // Finds its own worker script beside itself (and starts ours by path: src/server/document-work).
    "piscina",
    "@opentelemetry/sdk-trace",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/context-async-hooks",
    "@opentelemetry/resources",
    // CommonJS with relative requires, pulled into the peer build's step bundle by the benchmark's
    // peer (@ai-sdk/workflow validates tool input with it): Turbopack cannot evaluate it inlined.
    "ajv",
  ],
  poweredByHeader: false,
  // Every response: nosniff, framing, referrer and permissions policies. The API's responses get
  // a CSP that loads nothing; pages get theirs, with a per-request nonce, from the proxy
  // (src/proxy.ts). These headers are fixed at build time; HSTS depends on SECURE_COOKIES at run
  // time, so the proxy sets it.
  headers: async () => [
    { source: "/:path*", headers: STATIC_SECURITY_HEADERS },
    { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: NON_DOCUMENT_POLICY }] },
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
