import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { log } from "@coauthor/agent-workflow";
import { dataDir } from "@/server/data-dir";

// What a stop could not store (the database unreachable for the whole shutdown grace) waits in the
// data folder, one file per document, and is appended at the next start, retried until it is
// (issue #35). Other instances and the writers' clients usually hold the same updates and store them
// again when they can; this is for the stop that was the last holder. An update stored twice is
// harmless (Yjs applies it once).

/** The folder of updates a stop left unstored. */
export function spoolFolder(): string {
  return join(dataDir(), "unstored-updates");
}

/** A file's name: the document id (URI-encoded), when and by which process it was written. */
const FILE_NAME = /^(.+)\.(\d+)-(\d+)\.yjs$/;

/** Writes each document's unstored update to its own file (whole files only: written, then renamed). */
export function spoolUnstored(unstored: Map<string, Uint8Array>, folder = spoolFolder()): void {
  mkdirSync(folder, { recursive: true });
  for (const [documentId, update] of unstored) {
    const name = `${encodeURIComponent(documentId)}.${Date.now()}-${process.pid}.yjs`;
    writeFileSync(join(folder, `${name}.partial`), update);
    renameSync(join(folder, `${name}.partial`), join(folder, name));
  }
}

export interface ReplayOptions {
  /** Appends one update to the document's log. */
  append: (documentId: string, update: Uint8Array) => Promise<void>;
  folder?: string;
  /** Delay before the first retry of a file that could not be stored, doubled up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
}

/**
 * Appends every spooled update, deleting its file once stored; a file that cannot be stored yet is
 * tried again with backoff until it is. A document deleted meanwhile has nothing to keep: its file
 * is dropped. Resolves when the folder is empty.
 */
export async function replaySpool(options: ReplayOptions): Promise<void> {
  const folder = options.folder ?? spoolFolder();
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  let waitMs = options.retryMs ?? 1_000;
  for (;;) {
    const left = await replayOnce(folder, options.append);
    if (left === 0) return;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    waitMs = Math.min(maxRetryMs, waitMs * 2);
  }
}

/** One pass over the folder; returns how many files are left. */
async function replayOnce(
  folder: string,
  append: (documentId: string, update: Uint8Array) => Promise<void>,
): Promise<number> {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  let left = 0;
  for (const name of names) {
    const file = join(folder, name);
    const match = FILE_NAME.exec(name);
    if (!match) {
      // A write a stop did not finish (`.partial`): its update was never promised to anyone here.
      if (name.endsWith(".partial")) rmSync(file, { force: true });
      continue;
    }
    const documentId = decodeURIComponent(match[1] as string);
    try {
      await append(documentId, new Uint8Array(readFileSync(file)));
      rmSync(file, { force: true });
      log.info("collab: stored updates a previous stop had left unstored", { documentId });
    } catch (error) {
      if (isMissingDocument(error)) {
        log.info("collab: dropped unstored updates of a deleted document", { documentId });
        rmSync(file, { force: true });
        continue;
      }
      left++;
      log.warn("collab: updates a previous stop left unstored could not be stored yet", {
        documentId,
        error,
      });
    }
  }
  return left;
}

/** A foreign-key violation: the document the update belongs to is gone. */
function isMissingDocument(error: unknown): boolean {
  for (
    let cause = error;
    typeof cause === "object" && cause !== null;
    cause = (cause as { cause?: unknown }).cause
  ) {
    if ((cause as { code?: unknown }).code === "23503") return true;
  }
  return false;
}
