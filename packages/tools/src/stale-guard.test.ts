import { $getRoot, $isElementNode, $isTextNode } from "lexical";
import { describe, expect, it } from "vitest";
import { $findBlockById } from "./block-index.ts";
import { createDocumentEditor } from "./document-editor.ts";
import { runEditorToolNow } from "./editor-tools.ts";
import { exportMarkdown } from "./markdown.ts";
import { createStaleGuard, createStaleGuardMemory } from "./stale-guard.ts";

const idsOf = (editor: ReturnType<typeof createDocumentEditor>) =>
  editor
    .getEditorState()
    .toJSON()
    .root.children.map((child) => (child as { $?: { blockId?: string } }).$?.blockId ?? "");

/** A person types at the end of block `id` (not through a tool: no guard involved). */
function personTypes(editor: ReturnType<typeof createDocumentEditor>, id: string, text: string): void {
  editor.update(
    () => {
      const block = $findBlockById(id);
      const last = $isElementNode(block) ? block.getLastDescendant() : null;
      if ($isTextNode(last)) last.setTextContent(last.getTextContent() + text);
    },
    { discrete: true },
  );
}

describe("stale guard", () => {
  it("refuses to change a block someone edited since the model read it, and changes nothing", async () => {
    const editor = createDocumentEditor({ markdown: "The cat sat.\n\nNotes." });
    const [first, second] = idsOf(editor);
    const guard = createStaleGuard(editor);
    await guard.run("readDocument", {});
    personTypes(editor, first ?? "", " Typed by Bob.");
    const refused = await guard.run("replaceBlock", { blockId: first, markdown: "Rewritten." });
    expect(refused).toMatchObject({ ok: false, code: "stale-target" });
    expect(exportMarkdown(editor)).toBe("The cat sat. Typed by Bob.\n\nNotes.");
    // A block nobody touched is fine; and after reading again, so is the edited one.
    expect(await guard.run("replaceBlock", { blockId: second, markdown: "Fresh notes." })).toMatchObject({
      ok: true,
    });
    await guard.run("readDocument", {});
    expect(await guard.run("replaceBlock", { blockId: first, markdown: "Rewritten." })).toMatchObject({
      ok: true,
    });
  });

  it("a deleted block, and a document-wide replacement that would reach newly typed text, are refused too", async () => {
    const editor = createDocumentEditor({ markdown: "One cat.\n\nTwo.\n\nThree." });
    const [first, second] = idsOf(editor);
    const guard = createStaleGuard(editor);
    await guard.run("readDocument", {});
    editor.update(() => $findBlockById(second ?? "")?.remove(), { discrete: true });
    expect(await guard.run("deleteBlocks", { blockIds: [second] })).toMatchObject({ code: "stale-target" });
    personTypes(editor, idsOf(editor)[1] ?? "", " And a cat.");
    expect(await guard.run("replaceText", { search: "cat", replace: "dog" })).toMatchObject({
      code: "stale-target",
    });
    expect(exportMarkdown(editor)).toBe("One cat.\n\nThree. And a cat.");
    // The model's own edits never make its next edit stale.
    expect(await guard.run("replaceBlock", { blockId: first, markdown: "One dog." })).toMatchObject({
      ok: true,
    });
    expect(await guard.run("replaceBlock", { blockId: first, markdown: "One bird." })).toMatchObject({
      ok: true,
    });
  });

  it("before any read nothing is refused (the model writes blind only where it was told to)", async () => {
    const editor = createDocumentEditor({ markdown: "Alpha." });
    const guard = createStaleGuard(editor);
    personTypes(editor, idsOf(editor)[0] ?? "", " Beta.");
    expect(await guard.run("replaceText", { search: "Alpha", replace: "Gamma" })).toMatchObject({ ok: true });
    expect(editor.read(() => $getRoot().getTextContent())).toBe("Gamma. Beta.");
  });
});

describe("stale guard memory across copies", () => {
  it("guards a run whose every call binds a fresh copy of the document, as the server executor does", () => {
    const markdown = "The cat sat.\n\nNotes.";
    const live = createDocumentEditor({ markdown });
    const [first] = idsOf(live);
    const copyOfLive = () => {
      const copy = createDocumentEditor();
      copy.setEditorState(copy.parseEditorState(live.getEditorState().toJSON()));
      return copy;
    };
    const memory = createStaleGuardMemory();
    const call = (toolName: string, input: unknown) => {
      const copy = copyOfLive();
      const checked = memory.check(copy, toolName, input);
      if ("refused" in checked) return checked.refused;
      const result = runEditorToolNow(copy, toolName, input);
      memory.note(copy, toolName, checked.targets, result);
      live.setEditorState(live.parseEditorState(copy.getEditorState().toJSON()));
      return result;
    };
    call("readDocument", {});
    personTypes(live, first ?? "", " Typed by Bob.");
    expect(call("replaceBlock", { blockId: first, markdown: "Rewritten." })).toMatchObject({
      ok: false,
      code: "stale-target",
    });
    expect(exportMarkdown(live)).toBe("The cat sat. Typed by Bob.\n\nNotes.");
    call("readDocument", {});
    expect(call("replaceBlock", { blockId: first, markdown: "Rewritten." })).toMatchObject({ ok: true });
    // Its own write is what it saw last: the next write to the block goes through.
    expect(call("replaceText", { blockId: first, search: "Rewritten", replace: "Redone" })).toMatchObject({
      ok: true,
    });
    expect(exportMarkdown(live)).toBe("Redone.\n\nNotes.");
  });
});
