// PGlite passes every parameter and result as text, and its own bytea codec turns each byte into
// a string of its own (`Array.from(bytes).map(...).join("")`, and back through `parseInt` per
// byte): about a second a megabyte, on the main thread, for every stored Yjs state. Node's own hex
// codec does the same in milliseconds.

/** PostgreSQL's type id of bytea. */
const BYTEA = 17;

/** bytea in PostgreSQL's hex format (`\x` then two hex digits a byte), as PGlite sends a parameter. */
function serializeBytea(value: unknown): string {
  if (!(value instanceof Uint8Array)) throw new Error("bytea takes a Uint8Array");
  return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}`;
}

/** The bytes of a bytea result in hex format. */
function parseBytea(text: string): Uint8Array {
  const bytes = Buffer.from(text.slice(2), "hex");
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** PGlite options that encode and decode bytea with Node's hex codec. */
export const byteaCodec = {
  serializers: { [BYTEA]: serializeBytea },
  parsers: { [BYTEA]: parseBytea },
};
