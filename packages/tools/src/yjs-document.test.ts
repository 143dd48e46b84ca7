import { $createTextNode, $getRoot, type ParagraphNode } from "lexical";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { runEditorTool } from "./editor-tools.ts";
import { exportMarkdown } from "./markdown.ts";
import {
  bindDocumentEditor,
  bindMirroredEditor,
  stateFromYjsUpdate,
  yjsUpdateFromMarkdown,
} from "./yjs-document.ts";

const blockIdsOf = (state: ReturnType<typeof stateFromYjsUpdate>) =>
  state.root.children.map((child) => (child as { $?: { blockId?: string } }).$?.blockId);

describe("Yjs document binding", () => {
  it("round-trips Markdown content through Yjs with the block ids", () => {
    const update = yjsUpdateFromMarkdown("# Title\n\nFirst paragraph.\n\n- one\n- two\n");
    const bound = bindDocumentEditor(update);
    expect(exportMarkdown(bound.editor)).toBe("# Title\n\nFirst paragraph.\n\n- one\n- two");
    const ids = blockIdsOf(stateFromYjsUpdate(update));
    expect(ids).toHaveLength(3);
    expect(ids.every((id) => typeof id === "string" && /^b[0-9a-z]{8}$/.test(id))).toBe(true);
    // Another copy reads the same ids (they travel in the Yjs document).
    expect(blockIdsOf(stateFromYjsUpdate(update))).toEqual(ids);
  });

  it("seeds a new document with exactly one empty paragraph", () => {
    const state = stateFromYjsUpdate(yjsUpdateFromMarkdown(""));
    expect(state.root.children).toHaveLength(1);
    expect(state.root.children[0]?.type).toBe("paragraph");
  });

  it("syncs edits between two bound copies both ways and converges", async () => {
    const a = bindDocumentEditor(yjsUpdateFromMarkdown("Alpha.\n\nBeta.\n"));
    const b = bindDocumentEditor(Y.encodeStateAsUpdate(a.doc));
    a.doc.on("update", (update: Uint8Array, origin: unknown) => {
      if (origin !== "remote") Y.applyUpdate(b.doc, update, "remote");
    });
    b.doc.on("update", (update: Uint8Array, origin: unknown) => {
      if (origin !== "remote") Y.applyUpdate(a.doc, update, "remote");
    });
    const result = await runEditorTool(a.editor, "insertBlocks", {
      markdown: "Gamma.",
      position: { at: "end" },
    });
    expect(result).toMatchObject({ ok: true });
    b.editor.update(() => undefined, { discrete: true });
    expect(exportMarkdown(b.editor)).toBe("Alpha.\n\nBeta.\n\nGamma.");
    b.editor.update(
      () => {
        $getRoot().getFirstChildOrThrow().remove();
      },
      { discrete: true },
    );
    a.editor.update(() => undefined, { discrete: true });
    expect(exportMarkdown(a.editor)).toBe("Beta.\n\nGamma.");
    expect(Y.encodeStateVector(a.doc)).toEqual(Y.encodeStateVector(b.doc));
  });
});

describe("block ids under collaboration", () => {
  it("finds a block another copy created, by its id", async () => {
    const a = bindDocumentEditor(yjsUpdateFromMarkdown("Alpha.\n"));
    const b = bindDocumentEditor(Y.encodeStateAsUpdate(a.doc));
    a.doc.on("update", (update: Uint8Array) => Y.applyUpdate(b.doc, update, "remote"));
    await runEditorTool(a.editor, "insertBlocks", { markdown: "Gamma.", position: { at: "end" } });
    b.editor.update(() => undefined, { discrete: true });
    const id = blockIdsOf(b.editor.getEditorState().toJSON())[1];
    expect(id).toBeTruthy();
    const replaced = await runEditorTool(b.editor, "replaceBlock", { blockId: id, markdown: "Delta." });
    expect(replaced).toMatchObject({ ok: true });
    expect(exportMarkdown(b.editor)).toBe("Alpha.\n\nDelta.");
  });
});

describe("mirrored editor", () => {
  it("starts with the shared content, follows it, and sends its own edits with its origin", async () => {
    const page = bindDocumentEditor(yjsUpdateFromMarkdown("Alpha.\n"));
    const origins: unknown[] = [];
    page.doc.on("update", (_update: Uint8Array, origin: unknown) => origins.push(origin));
    const agent = bindMirroredEditor(page.doc, "agent");
    expect(exportMarkdown(agent.editor)).toBe("Alpha.");
    await runEditorTool(agent.editor, "insertBlocks", { markdown: "Beta.", position: { at: "end" } });
    page.editor.update(() => undefined, { discrete: true });
    expect(exportMarkdown(page.editor)).toBe("Alpha.\n\nBeta.");
    expect(origins).toEqual(["agent"]);
    page.editor.update(
      () => {
        $getRoot().getFirstChildOrThrow().remove();
      },
      { discrete: true },
    );
    agent.editor.update(() => undefined, { discrete: true });
    expect(exportMarkdown(agent.editor)).toBe("Beta.");
    agent.dispose();
  });
});

describe("mirrored editor and other writes to the shared document", () => {
  it("keeps following the shared document after writes of any other origin", async () => {
    const page = bindDocumentEditor(yjsUpdateFromMarkdown("Alpha."));
    const agent = bindMirroredEditor(page.doc, "agent");
    page.doc.transact(() => page.doc.getMap("side").set("k", 1), "bookkeeping");
    await runEditorTool(page.editor, "insertBlocks", { markdown: "Typed later.", position: { at: "end" } });
    agent.editor.update(() => undefined, { discrete: true });
    expect(exportMarkdown(agent.editor)).toBe("Alpha.\n\nTyped later.");
    agent.dispose();
  });
});

describe("mirrored editor and the content rule", () => {
  it("writes no forbidden control into the shared document, whatever a tool hands it", async () => {
    const page = bindDocumentEditor(yjsUpdateFromMarkdown("Alpha."));
    const agent = bindMirroredEditor(page.doc, "agent");
    agent.editor.update(
      () => {
        $getRoot().getFirstChildOrThrow<ParagraphNode>().append($createTextNode(" be\u0007ta\u0000"));
      },
      { discrete: true },
    );
    page.editor.update(() => undefined, { discrete: true });
    expect(exportMarkdown(page.editor)).toBe("Alpha. beta");
    agent.dispose();
  });
});
