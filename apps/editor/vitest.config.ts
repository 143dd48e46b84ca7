import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// "@/…" is the app's source folder, as in tsconfig.json and the Next build. Suites that open an
// embedded database migrate it in their setup: on a busy machine that takes more than the default
// 10 s, so setup gets the tests' bound.
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  test: { environment: "node", include: ["src/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 60_000 },
});
