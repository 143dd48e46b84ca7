import { defineConfig } from "vitest/config";

// Property tests build hundreds of documents: allow for a busy CI machine.
export default defineConfig({
  test: { environment: "node", include: ["src/**/*.test.ts"], testTimeout: 60_000 },
});
