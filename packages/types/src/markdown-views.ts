// How a document with pending suggestions is written as Markdown, and how Markdown carrying
// CriticMarkup is read back: the export's and the import's options (tRPC `documents.export`,
// `documents.create`).
import { z } from "zod";
import { copyStateVectorSchema } from "./collab.ts";

/**
 * The document as if every pending suggestion were accepted, as if every one were rejected, with
 * them written in CriticMarkup (`{++ ++}`, `{-- --}`, `{~~ ~> ~~}`, reasons as `{>> <<}`), or as
 * if accepted with who wrote each block that names its authors in an HTML comment before it
 * (`authorship`: which passages the agent wrote, and for whom).
 */
export const markdownViewSchema = z.enum(["accepted", "rejected", "criticmarkup", "authorship"]);
export type MarkdownView = z.infer<typeof markdownViewSchema>;

/** The view an export takes when none is chosen. */
export const DEFAULT_MARKDOWN_VIEW: MarkdownView = "accepted";

/**
 * How an imported text is read: plain Markdown, or Markdown whose CriticMarkup changes become
 * pending suggestions of the importing writer.
 */
export const markdownFormatSchema = z.enum(["markdown", "criticmarkup"]);
export type MarkdownFormat = z.infer<typeof markdownFormatSchema>;

/**
 * Why a CriticMarkup import or export was refused: markup the import does not read (left open, a
 * comment that follows no change), or text the export cannot carry exactly (a delimiter in code).
 */
export const INVALID_CRITICMARKUP = "invalid-criticmarkup";

/** `documents.export`: which document, in which view (without one: every block as the editor shows it). */
export const documentExportInputSchema = z.object({
  id: z.string().min(1).max(100),
  view: markdownViewSchema.optional(),
  /** The writer's copy's state vector: the export waits (briefly) until the live document holds it. */
  stateVector: copyStateVectorSchema.optional(),
});
export type DocumentExportInput = z.infer<typeof documentExportInputSchema>;
