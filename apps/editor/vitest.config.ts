import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// "@/…" is the app's source folder, as in tsconfig.json and the Next build. Hooks get the tests'
// time too: a suite's beforeAll opens and migrates an embedded database, which takes over the
// default 10 s on a busy machine.
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  test: { environment: "node", include: ["src/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 60_000 },
});
