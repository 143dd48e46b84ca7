// A headless client follows a run the way a tab does, and a tab holds the run's lease while it
// lives: without it the server executor (issue #39) takes over a call the client is slow to
// answer (a restart, a loaded machine) and the client's own result is refused as a second answer.
import { randomUUID } from "node:crypto";

/** What the lease needs of a client: its signed-in fetch (CoauthorClient has it). */
interface SignedInFetch {
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/** How often a held lease is renewed: a third of its 6 s lifetime, as the panel does. */
const RENEW_EVERY_MS = 2_000;

/** How long one instance has to answer a renewal before the next one is asked. */
const ANSWER_WITHIN_MS = 1_000;

/** A fetch that could not reach the server (it is restarting, a fault cut it off, it hung). */
function unreachable(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof DOMException && error.name === "TimeoutError");
}

/** The lease of one run, renewed through `clients` in turn until `release`. */
export class HeldRunLease {
  private readonly tabId = `test-${randomUUID()}`;
  private readonly timer: NodeJS.Timeout;
  private turn = 0;
  private renewing: Promise<void> = Promise.resolve();

  private readonly clients: SignedInFetch[];
  private readonly runId: string;

  private constructor(clients: SignedInFetch[], runId: string) {
    this.clients = clients;
    this.runId = runId;
    this.renewing = this.post(false);
    this.timer = setInterval(() => {
      this.renewing = this.renewing.then(() => this.post(false));
    }, RENEW_EVERY_MS);
  }

  /** Claims `runId`'s lease (on any of `clients`, one per instance) and keeps renewing it. */
  static hold(clients: SignedInFetch | SignedInFetch[], runId: string): HeldRunLease {
    return new HeldRunLease(Array.isArray(clients) ? clients : [clients], runId);
  }

  /** Stops renewing and lets go (as a closing tab does). */
  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.renewing;
    await this.post(true);
  }

  /**
   * Renews (or releases) on the next instance that answers: one that is down, stopping (a request
   * it no longer answers is cut off after a second) or not ready yet (503) is skipped at once, so
   * a restart of one instance never lets the lease lapse while the other is up.
   */
  private async post(release: boolean): Promise<void> {
    for (let tried = 0; tried < this.clients.length; tried++) {
      const client = this.clients[this.turn++ % this.clients.length] as SignedInFetch;
      try {
        const response = await client.fetch(`/api/llm/agent/${this.runId}/lease`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ tabId: this.tabId, release }),
          signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
        });
        // Not granted (the run ended, another holder) or refused: the run's own events say what
        // happened; the lease only keeps the server executor away while this client follows.
        await response.arrayBuffer();
        if (response.status !== 503) return;
      } catch (error) {
        if (!unreachable(error)) throw error;
      }
    }
  }
}
