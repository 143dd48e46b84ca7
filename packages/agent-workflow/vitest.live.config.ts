// The provider matrix against the real services (`pnpm test:live`): needs
// LIVE_PROVIDER_TESTS=1 and the providers' keys, costs a few cents, never runs in CI.
// Without them it fails, naming what is missing, rather than skipping silently.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    include: ["src/**/*.live.test.ts"],
    testTimeout: 120_000,
  },
});
