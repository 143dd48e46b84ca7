// The database schema, one module per concern; drizzle.config.ts points here.
export * from "./access-tokens";
export * from "./auth";
export * from "./comments";
export * from "./documents";
export * from "./runs";
export * from "./versions";
