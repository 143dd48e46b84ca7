// Which agent runs changed a document between two of its versions, for the Versions view ("who
// changed what") and the agent's listVersions. A pure function over rows the caller read, so the
// windows are tested without a database.

/** An agent run of the document: when it ran, its prompt and whose it was. */
export interface RunSpan {
  runId: string;
  prompt: string;
  /** The writer it worked for (null: a former member). */
  writer: string | null;
  createdAt: Date;
  /** Null while it is still running. */
  finishedAt: Date | null;
}

/** A listed version: when it was taken, and the run it was taken around (its own run), if any. */
export interface VersionMoment {
  createdAt: Date;
  runId: string | null;
}

export type VersionRun = Pick<RunSpan, "runId" | "prompt" | "writer">;

/**
 * For each version (newest first, as listed), the runs that were running at some moment since the
 * version before it (`before`: the version before the oldest listed, or null when it is the
 * first) and until it was taken, oldest first. A version's own run is left out: its label names
 * it. Runs one after another, each between its own "Before" and "After" versions, so name none;
 * a version taken while a run worked (a named one, one after a pause, another run's) names it.
 */
export function runsBetweenVersions(
  versions: readonly VersionMoment[],
  runs: readonly RunSpan[],
  before: Date | null,
): VersionRun[][] {
  const byStart = [...runs].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  return versions.map((version, index) => {
    const since = versions[index + 1]?.createdAt ?? before;
    return byStart
      .filter(
        (run) =>
          run.runId !== version.runId &&
          run.createdAt < version.createdAt &&
          (since === null || run.finishedAt === null || run.finishedAt > since),
      )
      .map(({ runId, prompt, writer }) => ({ runId, prompt, writer }));
  });
}
