import { runEditorTool, YJS_ROOT_NAME } from "@coauthor/tools";
import { INVALID_CONTENT, MAX_NESTING_DEPTH } from "@coauthor/types";
import * as Y from "yjs";
import { CoauthorClient, sharedDocument } from "../lib/coauthor-client.ts";
import { SyncClient, tryUpgrade } from "../lib/sync-client.ts";
import { expect, test } from "../lib/test.ts";

// The sync socket, spoken to directly (a Node client, not the UI): who may connect, what a
// read-only or hostile client can do to a document (nothing), and what closes a socket.

const connect = (baseURL: string, client: CoauthorClient, documentId: string) =>
  new SyncClient({ baseURL, cookie: client.cookie, documentId });

const append = (copy: SyncClient, markdown: string) =>
  runEditorTool(copy.bound.editor, "insertBlocks", { markdown, position: { at: "end" } });

// Hocuspocus' framing: the document name, then a y-protocols sync message (type 0, update = 2).
function varUint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return bytes;
}
function syncUpdateMessage(documentName: string, update: Uint8Array): Uint8Array<ArrayBuffer> {
  const name = new TextEncoder().encode(documentName);
  return Uint8Array.from([...varUint(name.length), ...name, 0, 2, ...varUint(update.length), ...update]);
}

/** An update on top of what `copy` holds, as a hostile client could write it (its own editor would not). */
function forgedUpdate(copy: SyncClient, forge: (root: Y.XmlText) => void): Uint8Array {
  const forged = new Y.Doc();
  Y.applyUpdate(forged, Y.encodeStateAsUpdate(copy.bound.doc));
  const before = Y.encodeStateVector(forged);
  forged.transact(() => forge(forged.get(YJS_ROOT_NAME, Y.XmlText)));
  return Y.encodeStateAsUpdate(forged, before);
}

/** Sends `update` over `copy`'s own socket, past its provider. */
function sendRaw(copy: SyncClient, documentId: string, update: Uint8Array): void {
  const socket = copy.socket.webSocket;
  if (!socket) throw new Error("no socket");
  socket.send(syncUpdateMessage(documentId, update));
}

/** Nests `levels` quotes one in another at the end of `parent` (Lexical's v1 binding: an element is a Y.XmlText). */
function nestQuotes(parent: Y.XmlText, levels: number): void {
  let current = parent;
  for (let level = 0; level < levels; level++) {
    const quote = new Y.XmlText();
    current.insertEmbed(current.length, quote);
    quote.setAttribute("__type", "quote");
    current = quote;
  }
}

test.describe("who may connect", () => {
  test("signed out, a foreign Origin and no Origin are refused at the upgrade", async ({
    baseURL,
    account,
  }) => {
    const url = baseURL ?? "";
    expect(await tryUpgrade({ baseURL: url, cookie: "" })).toBe(401);
    expect(await tryUpgrade({ baseURL: url, cookie: account.cookie, origin: "https://evil.example" })).toBe(
      403,
    );
    expect(await tryUpgrade({ baseURL: url, cookie: account.cookie, origin: "null" })).toBe(403);
    expect(await tryUpgrade({ baseURL: url, cookie: account.cookie })).toBe("open");
  });

  test("a signed-in non-member never receives the document", async ({ baseURL, account }) => {
    const documentId = await account.createDocument("Private text.");
    const stranger = await new CoauthorClient(baseURL ?? "").signIn();
    const copy = connect(baseURL ?? "", stranger, documentId);
    await expect(copy.synced(2_000)).rejects.toThrow();
    expect(copy.markdown()).toBe("");
    copy.close();
  });
});

test.describe("what a connection may change", () => {
  test("a viewer's updates change nothing in storage or in other copies", async ({ baseURL }) => {
    const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "viewer");
    const ownerCopy = connect(baseURL ?? "", owner, documentId);
    const viewerCopy = connect(baseURL ?? "", member, documentId);
    await Promise.all([ownerCopy.synced(), viewerCopy.synced()]);
    expect(viewerCopy.markdown()).toBe("Shared text.");

    const answered = viewerCopy.statusReplies;
    await append(viewerCopy, "Vandalism.");
    // The server has taken the viewer's update (and refused it) once it answers it.
    await expect.poll(() => viewerCopy.statusReplies).toBeGreaterThan(answered);
    expect(await owner.documentMarkdown(documentId)).toBe("Shared text.");
    await append(ownerCopy, "Owner's line.");
    await ownerCopy.flushed();
    await expect.poll(() => viewerCopy.markdown()).toContain("Owner's line.");
    expect(ownerCopy.markdown()).toBe("Shared text.\n\nOwner's line.");
    expect(await owner.documentMarkdown(documentId)).toBe("Shared text.\n\nOwner's line.");
    ownerCopy.close();
    viewerCopy.close();
  });

  test("a malformed or oversized update is refused and the document stays intact", async ({ baseURL }) => {
    const { owner, documentId } = await sharedDocument(baseURL ?? "", "editor");
    const attacker = connect(baseURL ?? "", owner, documentId);
    await attacker.synced();
    const socket = attacker.socket.webSocket;
    if (!socket) throw new Error("no socket");
    socket.send(syncUpdateMessage(documentId, Uint8Array.from([0xff, 0xff, 0xff, 0x01, 0x02, 0x03])));
    socket.send(syncUpdateMessage(documentId, new Uint8Array(3 * 1024 * 1024)));
    // The oversized message closes the socket, after the malformed one was handled (one socket, in order).
    await expect.poll(() => attacker.closes.length).toBeGreaterThan(0);

    // The server is still up and the document is what it was.
    const witness = connect(baseURL ?? "", owner, documentId);
    await witness.synced();
    expect(witness.markdown()).toBe("Shared text.");
    expect(await owner.documentMarkdown(documentId)).toBe("Shared text.");
    witness.close();
    attacker.close();
  });
});

test.describe("content checked at the door", () => {
  test("an update adding a node of a type no editor knows closes the socket and is never applied or stored", async ({
    baseURL,
  }) => {
    const { owner, documentId } = await sharedDocument(baseURL ?? "", "editor");
    const attacker = connect(baseURL ?? "", owner, documentId);
    await attacker.synced();
    // A well-formed Yjs update on top of the document, as a hostile client could write it (its own
    // editor could not: it knows no such node), sent over the attacker's socket.
    const forged = new Y.Doc();
    Y.applyUpdate(forged, Y.encodeStateAsUpdate(attacker.bound.doc));
    const before = Y.encodeStateVector(forged);
    const block = new Y.XmlText();
    forged.get(YJS_ROOT_NAME, Y.XmlText).insertEmbed(0, block);
    block.setAttribute("__type", "script-runner");
    const socket = attacker.socket.webSocket;
    if (!socket) throw new Error("no socket");
    socket.send(syncUpdateMessage(documentId, Y.encodeStateAsUpdate(forged, before)));
    await expect.poll(() => attacker.closes.length).toBeGreaterThan(0);
    attacker.close();

    // Every other copy, the stored document and the server's own reads are as they were.
    const witness = connect(baseURL ?? "", owner, documentId);
    await witness.synced();
    expect(witness.markdown()).toBe("Shared text.");
    expect(await owner.documentMarkdown(documentId)).toBe("Shared text.");
    witness.close();
  });
});

test.describe("the content rule at the door", () => {
  test("quotes nested 2,000 deep close the socket with invalid-content; export works and the document is unchanged", async ({
    baseURL,
  }) => {
    const { owner, documentId } = await sharedDocument(baseURL ?? "", "editor");
    const attacker = connect(baseURL ?? "", owner, documentId);
    await attacker.synced();
    // Accepted before the rule, it overflowed the stack of the server's Yjs → Lexical binding:
    // export and chat answered 409 document_damaged from then on.
    sendRaw(
      attacker,
      documentId,
      forgedUpdate(attacker, (root) => nestQuotes(root, 2_000)),
    );
    await expect.poll(() => attacker.closes).toContainEqual(expect.stringContaining(INVALID_CONTENT));
    attacker.close();

    expect(await owner.documentMarkdown(documentId)).toBe("Shared text.");
    const witness = connect(baseURL ?? "", owner, documentId);
    await witness.synced();
    expect(witness.markdown()).toBe("Shared text.");
    witness.close();
    // With no copy open, the export reads the stored state.
    await expect.poll(() => owner.documentMarkdown(documentId)).toBe("Shared text.");
  });

  test(`nesting one level past the rule (${MAX_NESTING_DEPTH + 1}) is refused on top of the document's own`, async ({
    baseURL,
  }) => {
    const { owner, documentId } = await sharedDocument(baseURL ?? "", "editor");
    const attacker = connect(baseURL ?? "", owner, documentId);
    await attacker.synced();
    // Two updates: the first is within the rule and stays; the second continues its chain past it.
    const within = forgedUpdate(attacker, (root) => nestQuotes(root, MAX_NESTING_DEPTH - 1));
    // Applied as the provider's own (it does not send it again), then sent raw.
    Y.applyUpdate(attacker.bound.doc, within, attacker.provider);
    const answered = attacker.statusReplies;
    sendRaw(attacker, documentId, within);
    await expect.poll(() => attacker.statusReplies).toBeGreaterThan(answered);
    expect(attacker.closes).toEqual([]);
    const past = forgedUpdate(attacker, (root) => {
      let innermost = root;
      for (let level = 0; level < MAX_NESTING_DEPTH - 1; level++) {
        const child = innermost
          .toDelta()
          .findLast((op: { insert: unknown }) => op.insert instanceof Y.XmlText);
        innermost = child.insert as Y.XmlText;
      }
      nestQuotes(innermost, 2);
    });
    sendRaw(attacker, documentId, past);
    await expect.poll(() => attacker.closes).toContainEqual(expect.stringContaining(INVALID_CONTENT));
    attacker.close();
    // The export still works (the document holds the 63 levels and nothing more).
    expect(await owner.documentMarkdown(documentId)).toContain("Shared text.");
  });

  test("a NUL typed over the socket closes it with invalid-content; the document and what is saved after it stay intact", async ({
    baseURL,
  }) => {
    const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "editor");
    const attacker = connect(baseURL ?? "", member, documentId);
    await attacker.synced();
    // Accepted before the rule, it was broadcast and then every store failed on PostgreSQL's
    // "invalid byte sequence for encoding UTF8: 0x00", silently: nothing was saved after it.
    sendRaw(
      attacker,
      documentId,
      forgedUpdate(attacker, (root) => {
        const paragraph = root.toDelta()[0]?.insert;
        if (!(paragraph instanceof Y.XmlText)) throw new Error("no paragraph");
        paragraph.insert(paragraph.length, "\u0000");
      }),
    );
    await expect.poll(() => attacker.closes).toContainEqual(expect.stringContaining(INVALID_CONTENT));
    attacker.close();
    expect(await owner.documentMarkdown(documentId)).toBe("Shared text.");

    // A writer's edit after it is stored, and the document's stored text (search, snippet) follows.
    const writer = connect(baseURL ?? "", owner, documentId);
    await writer.synced();
    expect(writer.markdown()).toBe("Shared text.");
    await append(writer, "Saved after.");
    await writer.flushed();
    writer.close();
    await expect.poll(() => owner.documentMarkdown(documentId)).toBe("Shared text.\n\nSaved after.");
    type ListPage = { items: Array<{ id: string; snippet: string }> };
    await expect
      .poll(
        async () =>
          (await owner.trpc<ListPage>("documents.list", { sort: "edited" }, "query")).items.find(
            (item) => item.id === documentId,
          )?.snippet,
        { timeout: 20_000 },
      )
      .toContain("Saved after.");
  });
});

test.describe("what closes a socket", () => {
  for (const change of ["removed", "demoted to viewer"] as const) {
    test(`a member ${change} is disconnected within a second, and their later edits never land`, async ({
      baseURL,
    }) => {
      const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "editor");
      const memberCopy = connect(baseURL ?? "", member, documentId);
      await memberCopy.synced();
      await append(memberCopy, "Before.");
      await memberCopy.flushed();

      if (change === "removed")
        await owner.trpc("documents.removeMember", { id: documentId, userId: member.userId });
      else await owner.trpc("documents.setRole", { id: documentId, userId: member.userId, role: "viewer" });
      await expect.poll(() => memberCopy.closes.length, { timeout: 1_000 }).toBeGreaterThan(0);

      // The member's copy edits on and connects again, as a browser does: the server checks anew.
      await append(memberCopy, "After.");
      const answered = memberCopy.statusReplies;
      memberCopy.reconnect();
      if (change === "removed") await expect.poll(() => memberCopy.refusals.length).toBeGreaterThan(0);
      else await expect.poll(() => memberCopy.statusReplies).toBeGreaterThan(answered);
      expect(await owner.documentMarkdown(documentId)).toBe("Shared text.\n\nBefore.");
      memberCopy.close();
    });
  }

  test("sign out everywhere closes the user's sockets", async ({ baseURL }) => {
    const { member, documentId } = await sharedDocument(baseURL ?? "", "editor");
    const memberCopy = connect(baseURL ?? "", member, documentId);
    await memberCopy.synced();
    expect((await member.signOutEverywhere()).status).toBe(200);
    await expect.poll(() => memberCopy.closes.length, { timeout: 1_000 }).toBeGreaterThan(0);
    memberCopy.close();
  });

  test("deleting the document closes every socket on it", async ({ baseURL }) => {
    const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "editor");
    const memberCopy = connect(baseURL ?? "", member, documentId);
    await memberCopy.synced();
    await owner.trpc("documents.delete", { id: documentId });
    await expect.poll(() => memberCopy.closes.length, { timeout: 1_000 }).toBeGreaterThan(0);
    memberCopy.close();
  });
});
