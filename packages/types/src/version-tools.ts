// The agent's version tools: it lists the document's versions and reads one, to answer "what
// changed since the draft" or to bring back a passage. Run by the server (versions live there),
// read-only: restoring stays a writer's decision.
import { z } from "zod";
import { toolFailureSchema } from "./tools.ts";

export const VERSION_TOOL_NAMES = ["listVersions", "readVersion"] as const;
export const versionToolNameSchema = z.enum(VERSION_TOOL_NAMES);
export type VersionToolName = z.infer<typeof versionToolNameSchema>;

/** True when tool `name` is a version tool (the server runs it). */
export function isVersionTool(name: string): name is VersionToolName {
  return (VERSION_TOOL_NAMES as readonly string[]).includes(name);
}

/** Most characters of a version's Markdown one readVersion answer holds (the rest is cut, and says so). */
export const MAX_VERSION_READ_CHARS = 100_000;

const failure = <T extends z.ZodObject<{ ok: z.ZodLiteral<true> }>>(success: T) =>
  z.discriminatedUnion("ok", [success, toolFailureSchema]);

export const listVersionsInputSchema = z.object({
  /** How many of the newest versions to list. */
  limit: z.int().min(1).max(100).default(20),
});
export const listVersionsOutputSchema = failure(
  z.object({
    ok: z.literal(true),
    versions: z.array(
      z.object({
        versionId: z.int(),
        /** Its name, or what took it ("Before Coauthor's run …", "Edits by Alice"). */
        label: z.string(),
        /** When it was taken (ISO 8601). */
        at: z.string(),
        by: z.string().nullable(),
        /** The agent runs that changed the document since the version before (oldest first). */
        runsSince: z.array(z.object({ runId: z.string(), prompt: z.string(), for: z.string().nullable() })),
        /** The people who changed the document since the version before (names). */
        editedBy: z.array(z.string()),
      }),
    ),
  }),
);

export const readVersionInputSchema = z.object({ versionId: z.int().min(1) });
export const readVersionOutputSchema = failure(
  z.object({
    ok: z.literal(true),
    versionId: z.int(),
    label: z.string(),
    markdown: z.string(),
    /** True when the Markdown was cut at MAX_VERSION_READ_CHARS. */
    truncated: z.boolean(),
  }),
);

export const versionToolSchemas = {
  listVersions: { input: listVersionsInputSchema, output: listVersionsOutputSchema },
  readVersion: { input: readVersionInputSchema, output: readVersionOutputSchema },
} as const satisfies { [K in VersionToolName]: { input: z.ZodType; output: z.ZodType } };
