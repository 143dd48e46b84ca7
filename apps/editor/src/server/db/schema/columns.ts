import { customType, timestamp } from "drizzle-orm/pg-core";

// Column helpers shared by the schema's modules.
export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });
/** Binary columns (Yjs updates): drizzle's pg-core has no bytea builder. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  // postgres.js sends a Buffer as bytea (a plain Uint8Array would go as text); PGlite takes either.
  toDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
  fromDriver: (value) => new Uint8Array(value),
});
