// The key that signs the hook tokens of tool calls. The app hands it in at server start
// (`configureAgent`): the same key its callback route verifies with. The package reads no file or
// variable for it. Kept on globalThis because Next bundles route handlers and workflow steps apart.

const KEY = Symbol.for("coauthor.hook-token-key");
type Holder = typeof globalThis & { [KEY]?: Uint8Array };

/** HS256 wants a key at least as long as its hash: 256 bits. */
const MIN_KEY_BYTES = 32;

export function configureHookTokenKey(key: Uint8Array): void {
  if (key.byteLength < MIN_KEY_BYTES) {
    throw new Error(`the hook-token key must be at least 256 bits (got ${key.byteLength * 8})`);
  }
  (globalThis as Holder)[KEY] = key;
}

/** The key hook tokens are signed with; throws when the app configured none. */
export function hookTokenKey(): Uint8Array {
  const key = (globalThis as Holder)[KEY];
  if (!key) throw new Error("no hook-token key is configured (configureAgent)");
  return key;
}
