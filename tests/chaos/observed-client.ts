// A user's HTTP client that keeps every 5xx answer it got, with where the server's log stood when
// the request went out: the round then checks that the server logged an error for each.
import type { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";

/** How long after a 5xx answer the server's error line may still come (it may log after answering). */
const LOG_GRACE_MS = 2_000;

/** A 5xx answer, and the stretch of its instance's log written while it was asked and answered. */
export interface ServerErrorAnswer {
  instance: number;
  method: string;
  path: string;
  status: number;
  at: string;
  body: string;
  /** The instance's log from here (when the request went out)… */
  logFrom: number;
  /** …to here (a little after the answer; null until then). */
  logTo: number | null;
}

/** A CoauthorClient of instance `instance` whose 5xx answers go into `answers`. */
export class ObservedClient extends CoauthorClient {
  private readonly server: AppServer;
  private readonly instance: number;
  private readonly answers: ServerErrorAnswer[];

  constructor(baseURL: string, server: AppServer, instance: number, answers: ServerErrorAnswer[]) {
    super(baseURL);
    this.server = server;
    this.instance = instance;
    this.answers = answers;
  }

  /** The same user (their session) on another instance or path. */
  sameUserOn(baseURL: string, server: AppServer, instance: number): ObservedClient {
    const client = new ObservedClient(baseURL, server, instance, this.answers);
    client.cookie = this.cookie;
    client.userId = this.userId;
    client.email = this.email;
    client.password = this.password;
    return client;
  }

  override async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const logFrom = this.server.log.length;
    const response = await super.fetch(path, init);
    if (response.status >= 500) {
      // The body is read from a copy: the caller reads the response as it is.
      const body = await response
        .clone()
        .text()
        .catch((error: unknown) => `(body unreadable: ${String(error)})`);
      const answer: ServerErrorAnswer = {
        instance: this.instance,
        method: init.method ?? "GET",
        path: path.split("?")[0] ?? path,
        status: response.status,
        at: new Date().toISOString(),
        body: body.slice(0, 300),
        logFrom,
        logTo: null,
      };
      this.answers.push(answer);
      setTimeout(() => {
        answer.logTo = this.server.log.length;
      }, LOG_GRACE_MS);
    }
    return response;
  }
}
