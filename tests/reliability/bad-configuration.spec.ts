import { expect, test } from "@playwright/test";
import { AppServer } from "../lib/app-server.ts";

// A server whose configuration does not validate must not look alive: it exits non-zero with the
// variable's name before it listens, instead of announcing itself and failing every request.
for (const [name, value] of [
  ["SECURE_COOKIES", "maybe"],
  ["WORKFLOW_TARGET_WORLD", "the-cloud"],
] as const) {
  test(`an invalid ${name} stops the server at start, naming it`, async () => {
    const server = new AppServer({ [name]: value });
    try {
      await expect(server.start()).rejects.toThrow(/server exited \(1\)/);
      expect(server.log).toContain(name);
      expect(server.log).toContain("Coauthor cannot start");
      expect(server.log).not.toContain("Coauthor is running at");
    } finally {
      await server.dispose();
    }
  });
}
