import { log } from "@coauthor/agent-workflow";
import { YJS_ROOT_NAME, yjsUpdateFromMarkdown } from "@coauthor/tools";
import { INVALID_CONTENT } from "@coauthor/types";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as Y from "yjs";
import { checkIncomingUpdate, INVALID_CONTENT_CODE } from "./content-door";

afterEach(() => {
  vi.restoreAllMocks();
});

function nestQuotes(parent: Y.XmlText, levels: number): Y.XmlText {
  let current = parent;
  for (let level = 0; level < levels; level++) {
    const child = new Y.XmlText();
    current.insertEmbed(current.length, child);
    child.setAttribute("__type", "quote");
    current = child;
  }
  return current;
}

/** The document as the sync server holds it, and a copy of it a client edits. */
function liveDocument() {
  const server = new Y.Doc();
  Y.applyUpdate(server, yjsUpdateFromMarkdown("Shared text."));
  const client = new Y.Doc();
  Y.applyUpdate(client, Y.encodeStateAsUpdate(server));
  const change = (edit: () => void) => {
    const before = Y.encodeStateVector(client);
    client.transact(edit);
    return Y.encodeStateAsUpdate(client, before);
  };
  return { server, client, change, root: client.get(YJS_ROOT_NAME, Y.XmlText) };
}

describe("the sync door", () => {
  it("refuses a NUL typed into the text with invalid-content (4422), logged once with the document id", () => {
    const warnings = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const { server, change, root } = liveDocument();
    const paragraph = root.toDelta()[0]?.insert as Y.XmlText;
    const update = change(() => paragraph.insert(0, "\u0000"));
    expect(() => checkIncomingUpdate("doc-1", update, server)).toThrow(
      expect.objectContaining({ code: INVALID_CONTENT_CODE, reason: INVALID_CONTENT }),
    );
    expect(warnings).toHaveBeenCalledTimes(1);
    expect(warnings.mock.calls[0]?.[1]).toMatchObject({ documentId: "doc-1", rule: "forbidden-control" });
  });

  it("refuses 2,000 nested quotes, and bytes that are not a Yjs update", () => {
    vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const { server, change, root } = liveDocument();
    const deep = change(() => nestQuotes(root, 2_000));
    expect(() => checkIncomingUpdate("doc-1", deep, server)).toThrow(
      expect.objectContaining({ code: INVALID_CONTENT_CODE, reason: INVALID_CONTENT }),
    );
    expect(() => checkIncomingUpdate("doc-1", Uint8Array.from([0xff, 0xff, 0xff, 0x01]), server)).toThrow(
      expect.objectContaining({ reason: INVALID_CONTENT }),
    );
  });

  it("lets ordinary content through", () => {
    const { server, change, root } = liveDocument();
    const paragraph = root.toDelta()[0]?.insert as Y.XmlText;
    expect(() =>
      checkIncomingUpdate(
        "doc-1",
        change(() => paragraph.insert(0, "Hi\t✨ ")),
        server,
      ),
    ).not.toThrow();
  });

  it("drops a deep chain held pending when its anchor arrives, and lets the anchor's own update through", () => {
    const warnings = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const { server, change, root } = liveDocument();
    let anchor = root;
    const anchorUpdate = change(() => {
      anchor = nestQuotes(root, 10);
    });
    const chain = change(() => nestQuotes(anchor, 60));
    checkIncomingUpdate("doc-1", chain, server);
    Y.applyUpdate(server, chain);
    expect(server.store.pendingStructs).not.toBeNull();
    expect(() => checkIncomingUpdate("doc-1", anchorUpdate, server)).not.toThrow();
    expect(server.store.pendingStructs).toBeNull();
    expect(warnings.mock.calls[0]?.[1]).toMatchObject({ documentId: "doc-1", rule: "nesting-depth" });
    Y.applyUpdate(server, anchorUpdate);
    // The anchor's ten levels are in; the pending sixty are not.
    let depth = 0;
    for (let element = server.get(YJS_ROOT_NAME, Y.XmlText); ; depth++) {
      // The chain hangs at the end of the root, after the paragraph.
      const child = (element.toDelta() as Array<{ insert: unknown }>).findLast(
        (op) => op.insert instanceof Y.XmlText,
      );
      if (!child) break;
      element = child.insert as Y.XmlText;
    }
    expect(depth).toBe(10);
  });
});
