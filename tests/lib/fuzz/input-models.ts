// Valid-shaped inputs for every API route and tRPC procedure: the fuzzer breaks one field of a
// valid input at a time, so its hostile value gets past the first checks (session, content type,
// the other fields) to the code that stores or uses that field. A route or procedure without a
// model here is still fuzzed (real ids in its path, generic hostile bodies), but the catalogue test
// in tests/security/fuzz.spec.ts fails until it has one: a generic body stops at the schema.

/** Real ids and accounts of the fuzz world, for valid inputs. */
export interface FuzzTargets {
  /** The owner's document, shared with the editor and the viewer. */
  documentId: string;
  /** A document of the owner's that a valid `documents.delete` may take. */
  doomedDocumentId: string;
  /** The owner's run on the document (over: cancelled at its first tool call). */
  runId: string;
  /** Another run of the owner's on the document, over, whose log a valid `assistant.deleteRunLog` may delete. */
  doomedRunId: string;
  /** That tool call's hook token and id. */
  hookToken: string;
  toolCallId: string;
  /** A viewer of the document whose role a valid setRole / removeMember / share may change. */
  spare: { userId: string; email: string; password: string };
  /** A pending invitation of the document (an email with no account) a valid revoke may take. */
  invitationId: string;
}

/** One valid shape of a request: values for dynamic path segments, query and JSON body. */
export interface RequestShape {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** An account nobody has yet: a valid sign-up creates it once, later ones are refused. */
const NEW_ACCOUNT = { email: "fuzz-new-account@example.test", password: "fuzz-password-1", name: "Fuzz" };

/** Valid shapes per `METHOD /route/pattern` of API routes and pages (several when one route serves several bodies). */
export function routeModels(t: FuzzTargets): Record<string, RequestShape[]> {
  const message = [{ role: "user", content: "Earlier question" }];
  return {
    // Better Auth: the sign-up and sign-in bodies. Sign-out and session revocation are left out on
    // purpose: a valid one would end the roles' own sessions (tests/security/access.spec.ts covers them).
    "GET /api/auth/[...all]": [{ params: { all: "get-session" } }],
    "POST /api/auth/[...all]": [
      { params: { all: "sign-up/email" }, body: NEW_ACCOUNT },
      { params: { all: "sign-in/email" }, body: { email: t.spare.email, password: t.spare.password } },
      // Mail links (written to the server log): a reset link and a verification link for the spare.
      {
        params: { all: "request-password-reset" },
        body: { email: t.spare.email, redirectTo: "/reset-password" },
      },
      { params: { all: "send-verification-email" }, body: { email: t.spare.email, callbackURL: "/" } },
      // No real token: a valid-shaped reset is refused (400) and changes nothing.
      {
        params: { all: "reset-password" },
        body: { token: "fuzz-not-a-token", newPassword: "fuzz-password-2" },
      },
    ],
    // Benchmark-only routes (404 unless COAUTHOR_BENCH=1, which the suite does not set).
    "POST /api/bench/gc": [{}],
    "POST /api/bench/naive": [{ body: { calls: 1, deltas: 1 } }],
    "POST /api/bench/naive/callback": [{ body: { runId: t.runId, call: 1 } }],
    "GET /api/health": [{}],
    "GET /api/metrics": [{}],
    "POST /api/llm/agent/[runId]/lease": [
      { params: { runId: t.runId }, body: { tabId: "fuzz-tab-0001", release: false } },
    ],
    "DELETE /api/llm/agent/[runId]": [{ params: { runId: t.runId } }],
    "GET /api/llm/agent/[runId]": [{ params: { runId: t.runId } }],
    "GET /api/llm/agent/[runId]/stream": [{ params: { runId: t.runId }, query: { from: "0" } }],
    "GET /api/llm/agent/active": [{ query: { documentId: t.documentId } }],
    "POST /api/llm/agent/callback": [
      { body: { hookToken: t.hookToken, toolCallId: t.toolCallId, result: { ok: true } } },
    ],
    "POST /api/llm/agent": [
      {
        body: {
          documentId: t.documentId,
          prompt: 'append "Fuzzed"',
          mode: "agent",
          messages: message,
          model: "offline",
          selection: { text: "Fuzz", blockIds: ["a"] },
        },
      },
      // Continuing a run: the target run was stopped, so a valid one is refused (409), but the
      // field is fuzzed past the schema.
      { body: { documentId: t.documentId, prompt: "Go on", mode: "agent", continueRunId: t.runId } },
      // A recipe (a pipeline): the built-in one every writer has.
      {
        body: {
          documentId: t.documentId,
          prompt: 'append "Fuzzed"',
          mode: "agent",
          recipeId: "review-and-revise",
        },
      },
    ],
    "POST /api/llm/stream": [
      {
        body: {
          documentId: t.documentId,
          prompt: "What is this about?",
          mode: "chat",
          messages: message,
          model: "offline",
        },
      },
    ],
    "GET /api/runs/[runId]/events": [{ params: { runId: t.runId }, query: { offset: "0" } }],
    // The tRPC endpoint itself: its procedures have models of their own (procedureModels); here the
    // procedure name is what is fuzzed (unknown names, batches).
    "GET /api/trpc/[trpc]": [
      { params: { trpc: "documents.list" } },
      { params: { trpc: "documents.get,documents.members" }, query: { batch: "1" } },
    ],
    "POST /api/trpc/[trpc]": [{ params: { trpc: "documents.create" }, body: { title: "Batch" } }],
    // Pages: their path segments and the `next` a sign-in returns to.
    "GET /": [{}],
    "GET /account": [{}],
    "GET /documents/[documentId]": [{ params: { documentId: t.documentId } }],
    "GET /sign-in": [{ query: { next: `/documents/${t.documentId}` } }],
    "GET /sign-up": [{ query: { next: "/" } }],
    "GET /forgot-password": [{}],
    "GET /reset-password": [{ query: { token: "fuzz-not-a-token" } }],
  };
}

/** Valid inputs per tRPC procedure path (`undefined`: the procedure takes none). */
export function procedureModels(t: FuzzTargets): Record<string, Record<string, unknown> | undefined> {
  const documentInput = { documentId: t.documentId };
  return {
    "assistant.conversation": documentInput,
    "assistant.runs": documentInput,
    "assistant.runEdits": { runId: t.runId },
    "assistant.deleteRunLog": { runId: t.doomedRunId },
    "assistant.clearConversation": documentInput,
    "assistant.addRunEdits": {
      runId: t.runId,
      edits: {
        beforeOrder: ["b1"],
        before: { b1: { type: "paragraph", children: [] } },
        after: { b1: { type: "paragraph", children: [] } },
        inserted: [],
        deleted: [],
        changed: ["b1"],
        moved: [],
      },
    },
    "documents.list": { query: "fuzz", sort: "title", cursor: 0 },
    "documents.create": {
      title: "Fuzzed document",
      markdown: "# Fuzz\n\n{++Text.++}",
      format: "criticmarkup",
    },
    "documents.rename": { id: t.documentId, title: "Renamed by the fuzzer" },
    "documents.delete": { id: t.doomedDocumentId },
    "documents.get": { id: t.documentId },
    "documents.export": { id: t.documentId, view: "criticmarkup" },
    "documents.members": { id: t.documentId },
    "documents.damage": { id: t.documentId },
    // The document loads, so a valid restore is refused (409) and changes nothing.
    "documents.restoreLastGood": { id: t.documentId },
    // Read-only: the last good state's Markdown (of a document that loads too).
    "documents.lastGoodMarkdown": { id: t.documentId },
    "documents.share": { id: t.documentId, email: t.spare.email, role: "viewer" },
    "documents.setRole": { id: t.documentId, userId: t.spare.userId, role: "editor" },
    "documents.removeMember": { id: t.documentId, userId: t.spare.userId },
    "documents.invitations": { id: t.documentId },
    "documents.revokeInvitation": { id: t.documentId, invitationId: t.invitationId },
    "llm.plan": { documentId: t.documentId, mode: "agent", prompt: "Plan this" },
    "recipes.list": documentInput,
    "recipes.save": {
      documentId: t.documentId,
      definition:
        "version: 1\nname: Fuzzed\nagents:\n  - id: checker\n    instructions: Check.\nsteps:\n  - agent: checker\n",
      shared: false,
    },
    // Nobody's recipe: a valid removal is refused (404) and changes nothing.
    "recipes.remove": { id: "rcp_fuzz" },
    "llm.models": undefined,
    "accessTokens.list": undefined,
    "accessTokens.create": { name: "Fuzzed token", expiresInDays: 30 },
    // Nobody's token: a valid revoke is refused (404) and changes nothing.
    "accessTokens.revoke": { id: "fuzz-token" },
    // A block and a thread the document does not hold: valid calls are refused (409 / 404) and change nothing.
    "comments.add": {
      documentId: t.documentId,
      anchor: { blockId: "bfuzz0000", offset: 0 },
      focus: { blockId: "bfuzz0000", offset: 4 },
      quote: "Fuzz",
      body: "A fuzzed comment.",
    },
    "comments.reply": { documentId: t.documentId, threadId: "fuzz-thread", body: "A fuzzed reply." },
    "comments.edit": {
      documentId: t.documentId,
      threadId: "fuzz-thread",
      commentId: "fuzz-comment",
      body: "Edited.",
    },
    "comments.delete": { documentId: t.documentId, threadId: "fuzz-thread", commentId: "fuzz-comment" },
    "comments.setStatus": { documentId: t.documentId, threadId: "fuzz-thread", status: "resolved" },
    "versions.list": documentInput,
    "versions.read": { documentId: t.documentId, versionId: 1 },
    "versions.save": { documentId: t.documentId, name: "Fuzzed version" },
    // A version of another document, or none: a valid restore is refused (404) and changes nothing.
    "versions.restore": { documentId: t.documentId, versionId: 999_999_999 },
  };
}

/** Real values for a dynamic segment of a route without a model (pages, engine routes). */
export function realSegmentValues(t: FuzzTargets): string[] {
  return [t.documentId, t.runId, "x"];
}
