import { runEditorTool } from "@coauthor/tools";
import { CoauthorClient, sharedDocument } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";
import { workflowRunCount } from "./server-state.ts";

interface DocumentView {
  id: string;
  title: string;
  role: string;
}

/** The document's title, the caller's role and its content as the server has it. */
const get = async (client: CoauthorClient, id: string) => ({
  ...(await client.trpc<DocumentView>("documents.get", { id }, "query")),
  markdown: await client.documentMarkdown(id),
});

const startRun = (client: CoauthorClient, documentId: string) =>
  client.fetch("/api/llm/agent", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ documentId, prompt: 'append "Sneaky"', mode: "agent" }),
  });

test.describe("viewers", () => {
  test("a viewer starting an agent run gets 403 and no workflow starts", async ({ baseURL }) => {
    const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "viewer");
    const before = await get(owner, documentId);
    const runsBefore = workflowRunCount();
    const response = await startRun(member, documentId);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "forbidden:document" });
    expect(response.headers.get("x-run-id")).toBeNull();
    expect(workflowRunCount()).toBe(runsBefore);
    expect(await get(owner, documentId)).toEqual(before);
  });

  test("a viewer may read and chat, but not rename or delete", async ({ baseURL }) => {
    const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "viewer");
    const before = await get(owner, documentId);
    expect(await get(member, documentId)).toMatchObject({ markdown: "Shared text.", role: "viewer" });
    const chat = await member.fetch("/api/llm/stream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ documentId, prompt: "What is this about?", mode: "chat" }),
    });
    expect(chat.status).toBe(200);
    expect(await chat.text()).not.toBe("");
    expect(await member.trpcCall("documents.rename", { id: documentId, title: "Mine" })).toMatchObject({
      status: 403,
      code: "FORBIDDEN",
    });
    expect(await member.trpcCall("documents.delete", { id: documentId })).toMatchObject({
      status: 403,
      code: "FORBIDDEN",
    });
    expect(await get(owner, documentId)).toEqual({ ...before, role: "owner" });
  });

  test("a viewer posting the owner's tool result gets 403; the owner's own delivery still works", async ({
    baseURL,
  }) => {
    const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "viewer");
    const before = await get(owner, documentId);
    const statuses: { viewer?: number; viewerCancel?: number } = {};
    const run = await owner.runAgent(documentId, 'append "Owner text"', {
      answer: async (event, editor) => {
        const result = await runEditorTool(editor, event.toolName, event.input);
        if (statuses.viewer === undefined) {
          const posted = await member.callback({
            hookToken: event.hookToken,
            toolCallId: event.toolCallId,
            result,
          });
          statuses.viewer = posted.status;
          expect(await posted.json()).toMatchObject({ code: "forbidden:hook_token" });
          statuses.viewerCancel = (await member.cancel(event.runId)).status;
        }
        return result;
      },
    });
    expect(statuses).toEqual({ viewer: 403, viewerCancel: 403 });
    // The viewer's post resumed nothing and burned nothing: every owner delivery was accepted once.
    expect(run.callbacks.length).toBeGreaterThan(0);
    expect(run.callbacks.every((c) => c.status === 204)).toBe(true);
    expect(run.events.filter((e) => e.type === "tool-result")).toHaveLength(run.callbacks.length);
    expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done" });
    expect(await get(owner, documentId)).toEqual(before);
  });
});

test.describe("run history", () => {
  test("the owner sees every run on the document and may read its log; an editor sees only their own", async ({
    baseURL,
  }) => {
    const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "editor");
    const ownerRun = await owner.runAgent(documentId, 'append "From the owner"');
    const memberRun = await member.runAgent(documentId, 'append "From the editor"');
    expect(ownerRun.events.at(-1)).toMatchObject({ type: "finish", status: "done" });
    expect(memberRun.events.at(-1)).toMatchObject({ type: "finish", status: "done" });

    const listed = async (client: CoauthorClient) =>
      (await client.trpc<{ id: string }[]>("assistant.runs", { documentId }, "query"))
        .map((run) => run.id)
        .sort();
    expect(await listed(owner)).toEqual([ownerRun.runId, memberRun.runId].sort());
    expect(await listed(member)).toEqual([memberRun.runId]);

    // The owner audits the editor's run; the editor cannot read the owner's, nor reattach to it.
    expect((await owner.fetch(`/api/runs/${memberRun.runId}/events`)).status).toBe(200);
    const refused = await member.fetch(`/api/runs/${ownerRun.runId}/events`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "forbidden:run" });
    expect((await owner.fetch(`/api/llm/agent/${memberRun.runId}/stream`)).status).toBe(403);
  });
});

test.describe("non-members", () => {
  test("cannot start a run, read a run's events or reattach to its stream", async ({ baseURL }) => {
    const owner = await new CoauthorClient(baseURL ?? "").signIn();
    const stranger = await new CoauthorClient(baseURL ?? "").signIn();
    const documentId = await owner.createDocument("Private.");
    const countBeforeOwnerRun = workflowRunCount();
    const run = await owner.runAgent(documentId, 'append "Mine"');
    expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done" });
    const runsBefore = workflowRunCount();
    // The counter sees real runs, so "unchanged" below means something.
    expect(runsBefore).toBe(countBeforeOwnerRun + 1);

    const started = await startRun(stranger, documentId);
    expect(started.status).toBe(403);
    expect(await started.json()).toMatchObject({ code: "forbidden:document" });
    expect(workflowRunCount()).toBe(runsBefore);

    const events = await stranger.fetch(`/api/runs/${run.runId}/events`);
    expect(events.status).toBe(403);
    expect(await events.json()).toMatchObject({ code: "forbidden:run" });
    const stream = await stranger.fetch(`/api/llm/agent/${run.runId}/stream`);
    expect(stream.status).toBe(403);
    expect(await stream.json()).toMatchObject({ code: "forbidden:run" });
    const missing = await stranger.fetch("/api/runs/wrun_no_such_run/events");
    expect(missing.status).toBe(404);
    // The owner still can.
    expect((await owner.fetch(`/api/runs/${run.runId}/events`)).status).toBe(200);
  });

  test("the document list shows only owned and shared documents, with the role", async ({ baseURL }) => {
    const owner = await new CoauthorClient(baseURL ?? "").signIn();
    const member = await new CoauthorClient(baseURL ?? "").signIn();
    const shared = await owner.createDocument("", "Shared one");
    const hidden = await owner.createDocument("", "Hidden one");
    await owner.trpc("documents.share", { id: shared, email: member.email, role: "viewer" });
    const mine = await member.createDocument("", "Member's own");

    type Listed = { items: { id: string; title: string; role: string }[] };
    const list = async (client: CoauthorClient) =>
      (await client.trpc<Listed>("documents.list", undefined, "query")).items;
    const memberList = (await list(member)).map(({ id, title, role }) => ({ id, title, role }));
    expect(memberList).toEqual([
      { id: mine, title: "Member's own", role: "owner" },
      { id: shared, title: "Shared one", role: "viewer" },
    ]);
    expect((await list(owner)).map((d) => d.id).sort()).toEqual([shared, hidden].sort());
    expect(await member.trpcCall("documents.get", { id: hidden }, "query")).toMatchObject({
      status: 404,
      code: "NOT_FOUND",
    });

    const { userId } = member;
    await owner.trpc("documents.removeMember", { id: shared, userId });
    expect((await list(member)).map((d) => d.id)).toEqual([mine]);
    expect(await member.trpcCall("documents.get", { id: shared }, "query")).toMatchObject({ status: 404 });
  });
});

test.describe("sharing", () => {
  test("only the owner may share, change roles or remove members", async ({ baseURL }) => {
    const { owner, member: editor, documentId } = await sharedDocument(baseURL ?? "", "editor");
    const third = await new CoauthorClient(baseURL ?? "").signIn();
    const stranger = await new CoauthorClient(baseURL ?? "").signIn();
    const members = () => owner.trpc<unknown[]>("documents.members", { id: documentId }, "query");
    const before = await members();
    expect(before).toHaveLength(2);

    const attempts = {
      editorShares: await editor.trpcCall("documents.share", {
        id: documentId,
        email: third.email,
        role: "editor",
      }),
      editorPromotes: await editor.trpcCall("documents.setRole", {
        id: documentId,
        userId: editor.userId,
        role: "viewer",
      }),
      editorRemoves: await editor.trpcCall("documents.removeMember", {
        id: documentId,
        userId: editor.userId,
      }),
      strangerShares: await stranger.trpcCall("documents.share", {
        id: documentId,
        email: stranger.email,
        role: "editor",
      }),
    };
    expect(attempts).toEqual({
      editorShares: { status: 403, code: "FORBIDDEN" },
      editorPromotes: { status: 403, code: "FORBIDDEN" },
      editorRemoves: { status: 403, code: "FORBIDDEN" },
      strangerShares: { status: 404, code: "NOT_FOUND" },
    });
    expect(await members()).toEqual(before);
    expect(await third.trpcCall("documents.get", { id: documentId }, "query")).toMatchObject({ status: 404 });
    expect(await stranger.trpcCall("documents.get", { id: documentId }, "query")).toMatchObject({
      status: 404,
    });
  });

  test("sharing with an unknown email makes a pending invitation, not a member", async ({ baseURL }) => {
    const owner = await new CoauthorClient(baseURL ?? "").signIn();
    const documentId = await owner.createDocument();
    const email = `nobody-${crypto.randomUUID()}@example.test`;
    const invited = await owner.trpc<{ invited: boolean; invitationId: string }>("documents.share", {
      id: documentId,
      email: email.toUpperCase(),
      role: "viewer",
    });
    expect(invited.invited).toBe(true);
    expect(await owner.trpc<unknown[]>("documents.members", { id: documentId }, "query")).toHaveLength(1);
    expect(await owner.trpc("documents.invitations", { id: documentId }, "query")).toEqual([
      expect.objectContaining({ id: invited.invitationId, email, role: "viewer" }),
    ]);
  });

  test("only the owner may list or revoke invitations", async ({ baseURL }) => {
    const { owner, member: editor, documentId } = await sharedDocument(baseURL ?? "", "editor");
    const stranger = await new CoauthorClient(baseURL ?? "").signIn();
    const { invitationId } = await owner.trpc<{ invitationId: string }>("documents.share", {
      id: documentId,
      email: `invitee-${crypto.randomUUID()}@example.test`,
      role: "editor",
    });
    const revoke = { id: documentId, invitationId };
    expect({
      editorLists: await editor.trpcCall("documents.invitations", { id: documentId }, "query"),
      editorRevokes: await editor.trpcCall("documents.revokeInvitation", revoke),
      strangerLists: await stranger.trpcCall("documents.invitations", { id: documentId }, "query"),
      strangerRevokes: await stranger.trpcCall("documents.revokeInvitation", revoke),
      badId: await owner.trpcCall("documents.revokeInvitation", { id: documentId, invitationId: "x" }),
    }).toEqual({
      editorLists: { status: 403, code: "FORBIDDEN" },
      editorRevokes: { status: 403, code: "FORBIDDEN" },
      strangerLists: { status: 404, code: "NOT_FOUND" },
      strangerRevokes: { status: 404, code: "NOT_FOUND" },
      badId: { status: 400, code: "BAD_REQUEST" },
    });
    expect(await owner.trpc<unknown[]>("documents.invitations", { id: documentId }, "query")).toHaveLength(1);
    await owner.trpc("documents.revokeInvitation", revoke);
    expect(await owner.trpc<unknown[]>("documents.invitations", { id: documentId }, "query")).toEqual([]);
    expect(await owner.trpcCall("documents.revokeInvitation", revoke)).toMatchObject({ status: 404 });
  });
});

test.describe("a role revoked mid-run", () => {
  for (const revoke of ["demoted to viewer", "removed"] as const) {
    test(`the member's tool result is refused with 403 and resumes nothing (${revoke})`, async ({
      baseURL,
    }) => {
      const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "editor");
      const before = await get(owner, documentId);
      const seen: { status?: number; code?: unknown; cancel?: number } = {};
      const run = await member.runAgent(documentId, 'append "Late edit"', {
        answer: async (event, editor) => {
          const result = await runEditorTool(editor, event.toolName, event.input);
          if (revoke === "removed") {
            await owner.trpc("documents.removeMember", { id: documentId, userId: member.userId });
          } else {
            await owner.trpc("documents.setRole", { id: documentId, userId: member.userId, role: "viewer" });
          }
          const posted = await member.callback({
            hookToken: event.hookToken,
            toolCallId: event.toolCallId,
            result,
          });
          seen.status = posted.status;
          seen.code = ((await posted.json()) as { code?: unknown }).code;
          // End the run now rather than waiting for the tool deadline.
          seen.cancel = (await member.cancel(event.runId)).status;
          return result;
        },
      });
      expect(seen).toEqual({ status: 403, code: "forbidden:document", cancel: 204 });
      expect(run.callbacks.map((c) => c.status)).toEqual([403]);
      expect(run.events.filter((e) => e.type === "tool-result")).toHaveLength(0);
      expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "cancelled" });
      expect(await get(owner, documentId)).toEqual(before);
    });
  }
});
