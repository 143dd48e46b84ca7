// What the browser and the sync server must agree on about the collaboration socket.
import { z } from "zod";

/** The path of the sync socket, on the app's own origin and port. */
export const COLLAB_PATH = "/collab";

/** The reason the sync server gives when it closes a copy because its user's access changed. */
export const ACCESS_CHANGED = "access-changed";

/**
 * The reason the sync server gives when a document's stored state fails to load: the page stops
 * reconnecting and shows the damage notice (restoring the last good version is the way out).
 */
export const DOCUMENT_DAMAGED = "document-damaged";

/**
 * The stateless message by which the sync server tells the copies connected to it whether every
 * change it took from them is stored: `stored: false` while storing fails (it retries until it
 * succeeds; the save indicator leaves "Saved"), `stored: true` once it has.
 */
export const saveStatusSchema = z.object({ type: z.literal("save-status"), stored: z.boolean() });
export type SaveStatus = z.infer<typeof saveStatusSchema>;

/**
 * The Yjs state vector of the writer's copy when they asked for something the server does on the
 * live document (a comment, a version), base64: the server waits for the live document to hold
 * it, since their last keystrokes travel over the socket while the request travels over HTTP.
 */
export const copyStateVectorSchema = z.base64().max(100_000);

// What another copy of the document says about itself in the collaboration awareness: input from
// another browser, so every field is checked and bounded (it decides what this copy renders).

/** Most blocks one agent edit flashes in other copies. */
const MAX_MARKED_BLOCKS = 50;
/** Most removal traces, and the longest label, one agent edit shows in other copies. */
const MAX_TRACES = 10;
const MAX_LABEL = 120;
const clip = (max: number) => z.string().transform((text) => text.slice(0, max));
const blockRef = z.string().max(100).nullable();

/** Where an agent edit removed blocks: between two surviving blocks (null at an end), and what went. */
export const removedRunSchema = z.object({ afterId: blockRef, beforeId: blockRef, label: clip(MAX_LABEL) });
export type RemovedRun = z.infer<typeof removedRunSchema>;

/**
 * The agent run a copy hosts: whose run it is, the blocks its last edit touched, where it removed
 * blocks, and when (a new `at` is a new edit to flash). Malformed traces are dropped one by one
 * (older clients send none).
 */
export const agentPresenceSchema = z.object({
  for: clip(80),
  blockIds: z.array(z.string().max(100)).transform((ids) => ids.slice(0, MAX_MARKED_BLOCKS)),
  removed: z
    .array(z.unknown())
    .optional()
    .transform((runs) =>
      (runs ?? [])
        .flatMap((run) => {
          const parsed = removedRunSchema.safeParse(run);
          return parsed.success ? [parsed.data] : [];
        })
        .slice(0, MAX_TRACES),
    ),
  at: z.number().finite(),
});
export type AgentPresence = z.infer<typeof agentPresenceSchema>;

/** Who a copy is (written by Lexical's collaboration binding): a name, and a colour it may draw. */
export const participantIdentitySchema = z.object({
  name: z
    .string()
    .min(1)
    .transform((name) => name.slice(0, 80)),
  color: z
    .string()
    .regex(/^[#a-z0-9(),.%\s-]{1,40}$/i)
    .catch(""),
});
