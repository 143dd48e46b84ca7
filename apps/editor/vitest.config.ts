import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// "@/…" is the app's source folder, as in tsconfig.json and the Next build.
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  test: { environment: "node", include: ["src/**/*.test.ts"], testTimeout: 60_000 },
});
