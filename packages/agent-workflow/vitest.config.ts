import { workflow } from "@workflow/vitest";
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [workflow()],
  test: {
    environment: "node",
    include: ["src/**/*.test.ts"],
    // Against the real providers: only `pnpm test:live` (vitest.live.config.ts), never in CI.
    exclude: [...configDefaults.exclude, "src/**/*.live.test.ts"],
    setupFiles: ["./vitest.setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    env: {
      OFFLINE_MODEL_WORD_DELAY_MS: "0",
    },
  },
});
