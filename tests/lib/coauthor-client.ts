// A headless client that talks to the app the way the browser does: session
// cookie, tRPC over HTTP, the agent's SSE stream, tools run on a headless
// Lexical editor and results posted to the callback route.
import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import type { RunEvent } from "@coauthor/types";
import { createRunEventParser } from "@coauthor/types/sse";
import type { LexicalEditor } from "lexical";

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
}

/** A user of the app over HTTP. */
export class CoauthorClient {
  cookie = "";
  readonly baseURL: string;

  constructor(baseURL: string) {
    this.baseURL = baseURL;
  }

  /** Visits the app once, which issues the session cookie of a new local user. */
  async signIn(): Promise<this> {
    const response = await fetch(`${this.baseURL}/`, { redirect: "manual" });
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith("coauthor_session="));
    if (!setCookie) throw new Error(`no session cookie from / (status ${response.status})`);
    this.cookie = setCookie.split(";")[0] ?? "";
    await response.arrayBuffer();
    return this;
  }

  /** A fetch with this user's cookie. */
  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set("cookie", this.cookie);
    return fetch(`${this.baseURL}${path}`, { ...init, headers });
  }

  /** Calls a tRPC mutation (POST) or query (GET) and returns its data. */
  async trpc<T>(path: string, input: unknown, kind: "query" | "mutation" = "mutation"): Promise<T> {
    const response =
      kind === "mutation"
        ? await this.fetch(`/api/trpc/${path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(input ?? {}),
          })
        : await this.fetch(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input ?? {}))}`);
    const body = (await response.json()) as { result?: { data: T }; error?: unknown };
    if (!response.ok || !body.result)
      throw new Error(`tRPC ${path} failed (${response.status}): ${JSON.stringify(body.error)}`);
    return body.result.data;
  }

  /** Creates a document holding `markdown` (saved as a Lexical state) and returns its id. */
  async createDocument(markdown = "", title = "Test document"): Promise<string> {
    const { id } = await this.trpc<{ id: string }>("documents.create", { title });
    if (markdown) {
      const editor = createDocumentEditor({ markdown });
      await this.trpc("documents.save", { id, content: JSON.stringify(editor.getEditorState().toJSON()) });
    }
    return id;
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
    const controller = new AbortController();
    const response = await this.fetch("/api/llm/agent", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ documentId, prompt, mode: "agent" }),
      signal: controller.signal,
    });
    const runId = response.headers.get("x-run-id") ?? "";
    const run: DrivenRun = {
      runId,
      status: response.status,
      headers: response.headers,
      events: [],
      callbacks: [],
    };
    if (!response.ok || !response.body) return run;
    const queue: RunEvent[] = [];
    const parser = createRunEventParser({
      onEvent: (event) => queue.push(event),
      onInvalid: (error) => {
        throw new Error(`invalid frame: ${error.message}`);
      },
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let stopped = false;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      while (queue.length > 0) {
        const event = queue.shift() as RunEvent;
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
    }
    return run;
  }
}
