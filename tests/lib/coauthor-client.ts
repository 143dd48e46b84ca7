// A headless client that talks to the app the way the browser does: session
// cookie, tRPC over HTTP, the agent's SSE stream, tools run on a headless
// Lexical editor and results posted to the callback route.
import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import { PROTOCOL_VERSION, PROTOCOL_VERSION_HEADER, type RunEvent } from "@coauthor/types";
import type { LexicalEditor } from "lexical";
import { z } from "zod";
import { serverLogFor, waitForMailLink } from "./mail-log.ts";
import { HeldRunLease } from "./run-lease.ts";
import { RunStream } from "./run-stream.ts";

/** What a driven run produced. */
export interface DrivenRun {
  runId: string;
  status: number;
  headers: Headers;
  events: RunEvent[];
  callbacks: { toolCallId: string; status: number }[];
  /** Status of the DELETE sent when `onEvent` asked to stop. */
  cancelStatus?: number;
}

/** Options for driving a run. */
export interface DriveOptions {
  /** Runs tools on this editor (defaults to a fresh one). */
  editor?: LexicalEditor;
  /** Called for every event; return "stop" to cancel the run right there. */
  onEvent?: (event: RunEvent, run: { runId: string }) => "stop" | undefined | Promise<"stop" | undefined>;
  /** Override what is posted for a tool call (default: run the tool). */
  answer?: (event: Extract<RunEvent, { type: "tool-call" }>, editor: LexicalEditor) => Promise<unknown>;
  /** More of the request (a `recipeId`). */
  request?: Record<string, unknown>;
}

/** An account's sign-in details. */
export interface Credentials {
  email: string;
  password: string;
}

// What Better Auth answers to sign-up and sign-in (the part the tests use).
const authAnswerSchema = z.object({ user: z.object({ id: z.string().min(1) }) });
// Better Auth's get-session answer (the part the tests use).
const sessionAnswerSchema = z.object({ user: z.object({ emailVerified: z.boolean() }) }).nullable();

/** How an account is signed up. */
export interface SignUpOptions {
  /** Verify the email through the link the server mails (default true); false leaves it unverified. */
  verified?: boolean;
}

// A tRPC answer over HTTP: a result or an error with its code.
const trpcAnswerSchema = z.object({
  result: z.object({ data: z.unknown() }).optional(),
  error: z.object({ data: z.object({ code: z.string() }).partial().optional() }).optional(),
});

/** A fresh, unique email + password (and name) for a new test account. */
export function freshCredentials(label = "writer"): Credentials & { name: string } {
  const id = crypto.randomUUID();
  return { email: `${label}-${id}@example.test`, password: `pw-${id}`, name: `Test ${label}` };
}

/** A user of the app over HTTP. */
export class CoauthorClient {
  cookie = "";
  /** The signed-in user's id and credentials (set by signUp / signIn / signInWith). */
  userId = "";
  email = "";
  password = "";
  readonly baseURL: string;

  constructor(baseURL: string) {
    this.baseURL = baseURL;
  }

  /** Signs up a fresh unique user (email + password, verified unless told) and keeps their session cookie. */
  signIn(options: SignUpOptions = {}): Promise<this> {
    return this.signUp(freshCredentials(), options);
  }

  /**
   * Creates an account and signs in as it; then, unless `verified: false`, verifies its email the
   * way a person does: opens the link the server mailed (sharing only reaches verified accounts).
   */
  async signUp(
    account: Credentials & { name: string },
    { verified = true }: SignUpOptions = {},
  ): Promise<this> {
    await this.authenticate("/api/auth/sign-up/email", account);
    if (verified) await this.verifyEmail();
    return this;
  }

  /** Opens the verification link mailed to this account (from the server's log) and checks it took. */
  async verifyEmail(): Promise<void> {
    const link = new URL(await waitForMailLink(serverLogFor(this.baseURL), this.email, "Verify your email"));
    const response = await this.fetch(`${link.pathname}${link.search}`, { redirect: "manual" });
    await response.arrayBuffer();
    const location = response.headers.get("location") ?? "";
    if (response.status >= 400 || location.includes("error="))
      throw new Error(`verifying ${this.email} failed (${response.status} ${location})`);
    this.keepCookies(response);
    const session = await this.fetch("/api/auth/get-session?disableCookieCache=true");
    const answer = sessionAnswerSchema.parse(await session.json());
    if (!answer?.user.emailVerified) throw new Error(`${this.email} is still unverified after its link`);
  }

  /** Takes the session cookies a response sets (an empty value deletes one). */
  private keepCookies(response: Response): void {
    const jar = new Map(
      this.cookie
        .split("; ")
        .filter(Boolean)
        .map((pair) => [pair.slice(0, pair.indexOf("=")), pair] as const),
    );
    for (const header of response.headers.getSetCookie()) {
      const pair = header.split(";")[0] ?? "";
      const name = pair.slice(0, pair.indexOf("="));
      if (!name.startsWith("coauthor.")) continue;
      if (pair.endsWith("=")) jar.delete(name);
      else jar.set(name, pair);
    }
    this.cookie = [...jar.values()].join("; ");
  }

  /** Signs in to an existing account (a new session beside any others). */
  async signInWith(account: Credentials): Promise<this> {
    return this.authenticate("/api/auth/sign-in/email", account);
  }

  /** Ends this session on the server (the answer is returned as is). */
  async signOut(): Promise<Response> {
    return this.authPost("/api/auth/sign-out", {});
  }

  /** Revokes every session of this user, on every device (the answer is returned as is). */
  async signOutEverywhere(): Promise<Response> {
    return this.authPost("/api/auth/revoke-sessions", {});
  }

  private async authenticate(path: string, body: Credentials & { name?: string }): Promise<this> {
    this.cookie = "";
    const response = await this.authPost(path, body);
    const text = await response.text();
    if (!response.ok) throw new Error(`${path} failed (${response.status}): ${text}`);
    const cookies = response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0] ?? "")
      .filter((c) => c.startsWith("coauthor."));
    if (!cookies.some((c) => c.startsWith("coauthor.session_token=")))
      throw new Error(`no session cookie from ${path} (status ${response.status})`);
    this.cookie = cookies.join("; ");
    this.userId = authAnswerSchema.parse(JSON.parse(text)).user.id;
    this.email = body.email;
    this.password = body.password;
    return this;
  }

  /** Better Auth checks the Origin of cookie-carrying POSTs (CSRF); a browser sends it, so do we. */
  private authPost(path: string, body: unknown): Promise<Response> {
    return this.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", origin: this.baseURL },
      body: JSON.stringify(body),
    });
  }

  /**
   * A fetch with this user's cookie and, like the page, the protocol version of this checkout
   * (unless `init` sets that header itself, e.g. to play a tab on older code).
   */
  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set("cookie", this.cookie);
    if (!headers.has(PROTOCOL_VERSION_HEADER)) headers.set(PROTOCOL_VERSION_HEADER, PROTOCOL_VERSION);
    return fetch(`${this.baseURL}${path}`, { ...init, headers });
  }

  /** Calls a tRPC procedure and returns the HTTP status, the error code (e.g. "FORBIDDEN") if any, and the data. */
  async trpcCall<T>(
    path: string,
    input: unknown,
    kind: "query" | "mutation" = "mutation",
  ): Promise<{ status: number; code?: string; data?: T }> {
    const response =
      kind === "mutation"
        ? await this.fetch(`/api/trpc/${path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(input ?? {}),
          })
        : await this.fetch(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input ?? {}))}`);
    const body = trpcAnswerSchema.parse(await response.json());
    return {
      status: response.status,
      code: body.error?.data?.code,
      data: body.result?.data as T | undefined,
    };
  }

  /** Calls a tRPC mutation (POST) or query (GET) and returns its data (throws on an error answer). */
  async trpc<T>(path: string, input: unknown, kind: "query" | "mutation" = "mutation"): Promise<T> {
    const answer = await this.trpcCall<T>(path, input, kind);
    if (answer.status >= 400 || answer.data === undefined)
      throw new Error(`tRPC ${path} failed (${answer.status}): ${answer.code ?? "no data"}`);
    return answer.data;
  }

  /** Creates a document holding `markdown` (the server seeds it) and returns its id. */
  async createDocument(markdown = "", title = "Test document"): Promise<string> {
    const { id } = await this.trpc<{ id: string }>("documents.create", { title, markdown });
    return id;
  }

  /** The document as the server has it, as Markdown (derived from its Yjs state). */
  async documentMarkdown(id: string): Promise<string> {
    return (await this.trpc<{ markdown: string }>("documents.export", { id }, "query")).markdown;
  }

  /** Posts a tool result to the callback route. */
  callback(body: unknown): Promise<Response> {
    return this.fetch("/api/llm/agent/callback", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  }

  /** Stop: cancels a run on the server. */
  cancel(runId: string): Promise<Response> {
    return this.fetch(`/api/llm/agent/${runId}`, { method: "DELETE" });
  }

  /** Starts an agent run and drives it to its end like the browser would. */
  async runAgent(documentId: string, prompt: string, options: DriveOptions = {}): Promise<DrivenRun> {
    const editor = options.editor ?? createDocumentEditor();
    const stream = await RunStream.start(this, documentId, prompt, options.request);
    const runId = stream.runId;
    const run: DrivenRun = {
      runId,
      status: stream.status,
      headers: stream.headers,
      events: [],
      callbacks: [],
    };
    let stopped = false;
    const lease = stream.status === 200 ? HeldRunLease.hold(this, runId) : null;
    try {
      for (let event = await stream.nextFrame(); event; event = await stream.nextFrame()) {
        run.events.push(event);
        if ((await options.onEvent?.(event, run)) === "stop" && !stopped) {
          stopped = true;
          run.cancelStatus = (await this.cancel(runId)).status;
        }
        if (event.type === "tool-call" && !stopped) {
          const result = options.answer
            ? await options.answer(event, editor)
            : await runEditorTool(editor, event.toolName, event.input);
          const posted = await this.callback({
            hookToken: event.hookToken,
            toolCallId: event.toolCallId,
            result,
          });
          run.callbacks.push({ toolCallId: event.toolCallId, status: posted.status });
          await posted.arrayBuffer();
        }
      }
    } finally {
      await lease?.release();
    }
    return run;
  }
}

/** An owner with a new document (holding `markdown`) shared with a fresh member of `role`. */
export async function sharedDocument(
  baseURL: string,
  role: "editor" | "commenter" | "viewer",
  markdown = "Shared text.",
) {
  const owner = await new CoauthorClient(baseURL).signIn();
  const member = await new CoauthorClient(baseURL).signIn();
  const documentId = await owner.createDocument(markdown);
  await owner.trpc("documents.share", { id: documentId, email: member.email, role });
  return { owner, member, documentId };
}
