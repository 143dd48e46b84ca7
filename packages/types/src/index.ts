export * from "./api.ts";
export * from "./client-json.ts";
export * from "./collab.ts";
export * from "./events.ts";
export * from "./pipeline.ts";
export * from "./plan.ts";
export * from "./run-edits.ts";
export * from "./workflow-store.ts";
