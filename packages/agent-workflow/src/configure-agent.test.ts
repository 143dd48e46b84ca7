import { afterEach, describe, expect, it } from "vitest";
import { type AgentStore, agentStore, configureAgentStore, memoryAgentStore } from "./agent-store.ts";
import { configureAgent } from "./configure-agent.ts";
import { readDocumentMarkdown } from "./document-reader.ts";
import { configureHookTokenKey, hookTokenKey } from "./hook-token-key.ts";

const setupKey = hookTokenKey();
afterEach(() => {
  // Back to what vitest.setup.ts configured, for the next file in this worker.
  configureHookTokenKey(setupKey);
  configureAgentStore(memoryAgentStore());
});

/** An executor that runs nothing (these tests configure, they run no tools). */
const noServerTools = { runServerTool: async () => null, offerToServer: () => undefined };

describe("configureAgent", () => {
  it("hands the package the app's key, store and document reader", async () => {
    const key = new TextEncoder().encode("a".repeat(32));
    const store: AgentStore = { ...memoryAgentStore(), isStopped: async () => true };
    configureAgent({
      hookTokenKey: key,
      store,
      documentReader: async (id) => `# ${id}`,
      serverTools: noServerTools,
    });
    expect(hookTokenKey()).toBe(key);
    expect(agentStore()).toBe(store);
    expect(await readDocumentMarkdown("doc-1")).toBe("# doc-1");
  });

  it("refuses a hook-token key shorter than 256 bits and keeps the one it had", () => {
    const short = new TextEncoder().encode("a".repeat(31));
    expect(() =>
      configureAgent({
        hookTokenKey: short,
        store: memoryAgentStore(),
        documentReader: async () => "",
        serverTools: noServerTools,
      }),
    ).toThrow(/at least 256 bits \(got 248\)/);
    expect(hookTokenKey()).toBe(setupKey);
  });
});
