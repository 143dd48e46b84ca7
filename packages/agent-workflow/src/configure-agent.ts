import { type AgentStore, configureAgentStore } from "./agent-store.ts";
import { configureDocumentReader, type DocumentReader } from "./document-reader.ts";
import { configureHookTokenKey } from "./hook-token-key.ts";
import { configureServerToolExecutor, type ServerToolExecutor } from "./server-tools.ts";

/** What the app hands the agent at server start: the package reads no secret, file or database itself. */
export interface AgentConfiguration {
  /** Signs each tool call's hook token (the app's callback route verifies with the same key). */
  hookTokenKey: Uint8Array;
  /** Where tool results and the turns step's progress are kept. */
  store: AgentStore;
  /** The document's Markdown as the server has it (a pipeline's parallel branches read it). */
  documentReader: DocumentReader;
  /** Runs the comment tools, and the calls no tab takes (server-tools.ts). */
  serverTools: ServerToolExecutor;
}

/** Configures this process's runs (call once at server start, before runs start). */
export function configureAgent(configuration: AgentConfiguration): void {
  configureHookTokenKey(configuration.hookTokenKey);
  configureAgentStore(configuration.store);
  configureDocumentReader(configuration.documentReader);
  configureServerToolExecutor(configuration.serverTools);
}
