import { test } from "@playwright/test";

/**
 * The data folder of the shared server the running test's project uses (playwright.config.ts
 * gives each such project a server of its own, and its folder as metadata): for tests that look
 * at what the server stored.
 */
export function sharedServerDataDir(): string {
  const dataDir = (test.info().project.metadata as { dataDir?: unknown } | undefined)?.dataDir;
  if (typeof dataDir !== "string")
    throw new Error(`project ${test.info().project.name} has no shared server (see playwright.config.ts)`);
  return dataDir;
}
