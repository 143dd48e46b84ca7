// The world the fuzz suite attacks: the built app on a throwaway PostgreSQL database of its own (so
// every table can be fingerprinted while it runs), five callers — owner, editor, viewer, stranger
// and signed-out — and real ids to aim at (a shared document, a run that is over, its hook token).
// `check` sends one generated request as each caller and asserts the two invariants.
import { randomBytes } from "node:crypto";
import { AppServer } from "../app-server.ts";
import { CoauthorClient, freshCredentials } from "../coauthor-client.ts";
import { createTestDatabase, requireSharedServices } from "../shared-services.ts";
import type { FuzzRequest } from "./hostile-requests.ts";
import type { FuzzTargets } from "./input-models.ts";
import { changedPlaces, type Fingerprint, StorageFingerprinter } from "./storage-fingerprint.ts";

/** The callers, least privileged first: a refused caller is checked before one that may change storage. */
export const ROLES = ["signed-out", "stranger", "viewer", "editor", "owner"] as const;
export type Role = (typeof ROLES)[number];

/** What a check expects besides the invariants (engine routes: refused for everyone). */
export interface CheckOptions {
  /** The only statuses allowed. */
  statuses?: readonly number[];
  /** The callers to send it as (default: all five). */
  roles?: readonly Role[];
}

/** Better Auth's routes: sign-up and sign-in store an account or a session for a signed-out caller. */
const AUTH_PATH = "/api/auth/";
/** Storage counts as settled once two readings this far apart agree. */
const SETTLE_INTERVAL_MS = 150;
const SETTLE_TIMEOUT_MS = 30_000;
/** A response (streams included: every run is over or stopped at once) is read within this. */
const RESPONSE_TIMEOUT_MS = 30_000;

/** A running app with its callers, targets and storage fingerprint. */
export class FuzzWorld {
  /** Requests sent, and how many of them the app accepted (2xx): the suite's size. */
  sent = 0;
  accepted = 0;
  private baseline: Fingerprint = new Map();

  readonly server: AppServer;
  readonly storage: StorageFingerprinter;
  readonly callers: Record<Role, CoauthorClient>;
  readonly targets: FuzzTargets;
  /** The app's database (the fingerprint reads it). */
  readonly databaseUrl: string;
  private readonly drop: () => Promise<void>;

  private constructor(parts: {
    server: AppServer;
    databaseUrl: string;
    drop: () => Promise<void>;
    storage: StorageFingerprinter;
    callers: Record<Role, CoauthorClient>;
    targets: FuzzTargets;
  }) {
    this.server = parts.server;
    this.databaseUrl = parts.databaseUrl;
    this.drop = parts.drop;
    this.storage = parts.storage;
    this.callers = parts.callers;
    this.targets = parts.targets;
  }

  /** Starts the app on a fresh database and builds the callers and targets. */
  static async start(): Promise<FuzzWorld> {
    await requireSharedServices();
    const database = await createTestDatabase("fuzz");
    const server = new AppServer({
      DATABASE_URL: database.url,
      SESSION_SECRET: randomBytes(32).toString("base64url"),
      HOOK_TOKEN_SECRET: randomBytes(32).toString("base64url"),
      LOG_LEVEL: "error",
      OFFLINE_MODEL_WORD_DELAY_MS: "1",
      // Limits would turn most valid requests into 429s; the limits have specs of their own.
      RATE_LIMIT_RUNS_PER_MINUTE: "100000",
      RATE_LIMIT_CHAT_PER_MINUTE: "100000",
      RATE_LIMIT_CALLBACKS_PER_MINUTE: "100000",
      AUTH_RATE_LIMIT_PER_MINUTE: "100000",
    });
    try {
      await server.start();
      const callers = await signUpCallers(server.url);
      const targets = await createTargets(server.url, callers);
      const storage = new StorageFingerprinter(database.url, server.dataDir);
      const world = new FuzzWorld({
        server,
        databaseUrl: database.url,
        drop: database.drop,
        storage,
        callers,
        targets,
      });
      world.baseline = await world.settle();
      return world;
    } catch (error) {
      await server.dispose();
      await database.drop();
      throw error;
    }
  }

  /** The app's origin (same-origin requests send it). */
  get origin(): string {
    return new URL(this.server.url).origin;
  }

  /**
   * Sends `request` as each caller and asserts the invariants: the answer is never 5xx, and
   * storage is unchanged unless the app accepted the request (2xx). Throws with the caller, the
   * answer and the places that changed.
   */
  async check(request: FuzzRequest, options: CheckOptions = {}): Promise<void> {
    for (const role of options.roles ?? ROLES) {
      const { status, answer } = await this.answerOf(role, request, options);
      if (status >= 200 && status < 300) {
        // Accepted: storage may change (now, or as the work it started ends): the next baseline.
        // A read (GET) starts no work, so storage is read once; anything else is waited on until it
        // stops changing. (A GET that did start work would show as a change at the next refusal.)
        const before = this.baseline;
        this.baseline = request.method === "GET" ? await this.storage.read() : await this.settle();
        // Accepted from nobody: only signing up or in may store something for a signed-out caller.
        const changed = changedPlaces(before, this.baseline);
        if (role === "signed-out" && changed.length > 0 && !request.path.startsWith(AUTH_PATH))
          throw new Error(`a signed-out request changed ${changed.join(", ")} — ${answer}`);
        continue;
      }
      const changed = changedPlaces(this.baseline, await this.storage.read());
      if (changed.length > 0) {
        this.baseline = await this.settle();
        throw new Error(`refused, yet storage changed in ${changed.join(", ")} — ${answer}`);
      }
    }
  }

  /**
   * Sends each of `requests` as each caller and asserts that no answer is 5xx and that storage,
   * read once after them all, is what it was before: for requests that must change nothing even
   * when answered 2xx (a method a route does not export; a page renders for any method). Reading
   * storage once rather than after each answer took that suite from 50 s to a few. A change is
   * traced back by checking the requests one at a time.
   */
  async checkChangesNothing(requests: readonly FuzzRequest[], options: CheckOptions = {}): Promise<void> {
    const answers: string[] = [];
    for (const request of requests) {
      for (const role of options.roles ?? ROLES) {
        const { answer } = await this.answerOf(role, request, options);
        answers.push(`${request.method} ${request.path} as ${answer.slice(0, 160)}`);
      }
    }
    const changed = changedPlaces(this.baseline, await this.storage.read());
    if (changed.length === 0) return;
    this.baseline = await this.settle();
    if (requests.length > 1) {
      for (const request of requests) await this.checkChangesNothing([request], options);
    }
    throw new Error(`storage changed in ${changed.join(", ")} after: ${answers.join("; ")}`);
  }

  /**
   * Sends `request` as `role` and counts it; throws on a 5xx answer or one outside
   * `options.statuses`. Returns the status and the answer in a line (for the errors).
   */
  private async answerOf(
    role: Role,
    request: FuzzRequest,
    options: CheckOptions,
  ): Promise<{ status: number; answer: string }> {
    const { status, text } = await this.send(this.callers[role], request);
    this.sent += 1;
    if (status >= 200 && status < 300) this.accepted += 1;
    const answer = `${role}: ${status} ${text.slice(0, 300)}`;
    if (status >= 500) throw new Error(`5xx answer — ${answer}`);
    if (options.statuses && !options.statuses.includes(status))
      throw new Error(`expected ${options.statuses.join(" or ")} — ${answer}`);
    return { status, answer };
  }

  /** Sends one request as `caller`; a run it started is stopped at once (a live run would write to storage later). */
  private async send(
    caller: CoauthorClient,
    request: FuzzRequest,
  ): Promise<{ status: number; text: string }> {
    let response: Response;
    try {
      response = await caller.fetch(request.path, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: "manual",
        signal: AbortSignal.timeout(RESPONSE_TIMEOUT_MS),
      });
    } catch (error) {
      // Past Node's header limit the server answers 431 and closes the socket at once; a client
      // still writing a URL that long sees the reset instead of the answer. Refused before the
      // app, so it counts as the 431 (storage is still checked); any other failure is one.
      if (request.path.length > NODE_HEADER_LIMIT && isConnectionReset(error)) {
        return { status: 431, text: "connection reset: the request line is over Node's header limit" };
      }
      throw error;
    }
    const runId = response.headers.get("x-run-id");
    if (response.ok && runId) {
      const stopped = await caller.cancel(runId);
      await stopped.arrayBuffer();
      if (!stopped.ok) throw new Error(`could not stop run ${runId} the request started: ${stopped.status}`);
    }
    return { status: response.status, text: await response.text() };
  }

  /** Waits until storage stops changing (work a request started has ended) and returns its fingerprint. */
  async settle(): Promise<Fingerprint> {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    let previous = await this.storage.read();
    while (Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, SETTLE_INTERVAL_MS));
      const current = await this.storage.read();
      if (changedPlaces(previous, current).length === 0) return current;
      previous = current;
    }
    throw new Error(`storage kept changing for ${SETTLE_TIMEOUT_MS} ms`);
  }

  /** Stops the app and drops its database. */
  async dispose(): Promise<void> {
    await this.storage.close();
    await this.server.dispose();
    await this.drop();
  }
}

/** Four accounts (the fifth caller is signed out). */
async function signUpCallers(baseURL: string): Promise<Record<Role, CoauthorClient>> {
  const signUp = (label: string) => new CoauthorClient(baseURL).signUp(freshCredentials(label));
  return {
    "signed-out": new CoauthorClient(baseURL),
    stranger: await signUp("stranger"),
    viewer: await signUp("viewer"),
    editor: await signUp("editor"),
    owner: await signUp("owner"),
  };
}

/** The owner's shared document, a document to delete, two runs that are over (one to delete the log of) and a spare member. */
async function createTargets(baseURL: string, callers: Record<Role, CoauthorClient>): Promise<FuzzTargets> {
  const { owner, editor, viewer } = callers;
  const documentId = await owner.createDocument("# Fuzz target\n\nSome text to read.", "Fuzz target");
  const doomedDocumentId = await owner.createDocument("Doomed.", "Doomed");
  await owner.trpc("documents.share", { id: documentId, email: editor.email, role: "editor" });
  await owner.trpc("documents.share", { id: documentId, email: viewer.email, role: "viewer" });
  const spareCredentials = freshCredentials("spare");
  const spare = await new CoauthorClient(baseURL).signUp(spareCredentials);
  await owner.trpc("documents.share", { id: documentId, email: spare.email, role: "viewer" });
  const { invitationId } = await owner.trpc<{ invitationId: string }>("documents.share", {
    id: documentId,
    email: "fuzz-invitee@example.test",
    role: "viewer",
  });

  // A run stopped at its first tool call: its id, and a hook token that is real but spent.
  let toolCall: { hookToken: string; toolCallId: string } | undefined;
  const run = await owner.runAgent(documentId, "count to 3", {
    onEvent: (event) => {
      if (event.type !== "tool-call") return undefined;
      toolCall ??= { hookToken: event.hookToken, toolCallId: event.toolCallId };
      return "stop";
    },
  });
  if (!toolCall) throw new Error(`the target run made no tool call: ${JSON.stringify(run.events)}`);
  // A second run, stopped the same way, whose log a valid deleteRunLog takes.
  const doomedRun = await owner.runAgent(documentId, "count to 3", {
    onEvent: (event) => (event.type === "tool-call" ? "stop" : undefined),
  });
  return {
    documentId,
    doomedDocumentId,
    runId: run.runId,
    doomedRunId: doomedRun.runId,
    ...toolCall,
    spare: { userId: spare.userId, email: spare.email, password: spareCredentials.password },
    invitationId,
  };
}

/** Node's default limit on a request's line and headers together (bytes). */
const NODE_HEADER_LIMIT = 16 * 1024;

/** Whether a fetch failed because the server closed the connection while the request was sent. */
function isConnectionReset(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = typeof cause === "object" && cause !== null && "code" in cause ? cause.code : undefined;
  return code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET";
}
