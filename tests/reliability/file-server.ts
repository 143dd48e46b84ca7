import { AppServer } from "../lib/app-server.ts";
import { test } from "../lib/test.ts";

/** A server of its own for the calling test file: started before its tests, disposed after. */
export function serverForThisFile(env: Record<string, string>): AppServer {
  const server = new AppServer(env);
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    await server.start();
  });
  test.afterAll(async () => {
    await server.dispose();
  });
  return server;
}
