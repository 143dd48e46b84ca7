import { log } from "@coauthor/agent-workflow";

// Versions after a pause in editing (issue #37): people's edits of a document are kept as a
// version once editing pauses, at most one per interval, each naming who edited since the last
// one — so "how it looked an hour ago" has an answer even when no agent ran and nobody pressed
// Save version. Each instance watches the edits its own connections make (an update relayed from
// another instance is that instance's to count), and asks the database when the last such version
// was taken, so two instances editing one document still take about one per interval.

/** What an `EditVersions` needs from the rest of the server (injected: the timing is tested alone). */
export interface EditVersionsPorts {
  /** No edit for this long ends a stretch of editing. */
  pauseMs: number;
  /** Least time between two such versions of one document. */
  intervalMs: number;
  /** When the document's last version after a pause was taken (epoch ms), or null. */
  lastTakenAt(documentId: string): Promise<number | null>;
  /** Takes the version: `editors` are the user ids of who changed it since the last one. */
  take(documentId: string, editors: string[]): Promise<void>;
  now?: () => number;
}

interface Stretch {
  /** People whose edits the next version holds (server-side edits name nobody). */
  editors: Set<string>;
  timer: NodeJS.Timeout | null;
}

export class EditVersions {
  private readonly stretches = new Map<string, Stretch>();
  private readonly ports: EditVersionsPorts;
  private readonly now: () => number;

  constructor(ports: EditVersionsPorts) {
    this.ports = ports;
    this.now = ports.now ?? Date.now;
  }

  /** A change of `documentId` by `editorId` (undefined: a server-side edit): the pause starts again. */
  noteChange(documentId: string, editorId?: string): void {
    const stretch = this.stretches.get(documentId) ?? { editors: new Set<string>(), timer: null };
    if (editorId !== undefined) stretch.editors.add(editorId);
    this.stretches.set(documentId, stretch);
    this.schedule(documentId, stretch, this.ports.pauseMs);
  }

  /** Stops every timer (the server is stopping; edits not yet kept stay in the document itself). */
  stop(): void {
    for (const stretch of this.stretches.values()) if (stretch.timer !== null) clearTimeout(stretch.timer);
    this.stretches.clear();
  }

  private schedule(documentId: string, stretch: Stretch, delayMs: number): void {
    if (stretch.timer !== null) clearTimeout(stretch.timer);
    stretch.timer = setTimeout(() => {
      stretch.timer = null;
      void this.afterPause(documentId, stretch).catch((error: unknown) =>
        log.error("versions: could not take a version after a pause in editing", { documentId, error }),
      );
    }, delayMs);
    // A pending version never keeps the process alive.
    stretch.timer.unref();
  }

  private async afterPause(documentId: string, stretch: Stretch): Promise<void> {
    const last = await this.ports.lastTakenAt(documentId);
    // An edit while the database answered started a new pause: that one decides.
    if (stretch.timer !== null || this.stretches.get(documentId) !== stretch) return;
    const due = last === null ? 0 : last + this.ports.intervalMs - this.now();
    if (due > 0) {
      // Too soon after the last one: kept for when the interval is up (edits meanwhile join it).
      this.schedule(documentId, stretch, due);
      return;
    }
    this.stretches.delete(documentId);
    await this.ports.take(documentId, [...stretch.editors]);
  }
}
