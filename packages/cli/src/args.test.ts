import { describe, expect, it } from "vitest";
import { parseCommand, USAGE } from "./args.ts";

describe("parseCommand", () => {
  it("reads the document, the prompt, a recipe and Suggest mode", () => {
    const parsed = parseCommand([
      "run",
      "--document",
      "doc1",
      'append "Hi"',
      "--recipe",
      "review-and-revise",
      "--suggest",
    ]);
    expect(parsed).toEqual({
      ok: true,
      command: { documentId: "doc1", prompt: 'append "Hi"', recipeId: "review-and-revise", suggest: true },
    });
  });

  it("edits directly unless --suggest is given", () => {
    const parsed = parseCommand(["run", "-d", "doc1", "Tidy up"]);
    expect(parsed).toEqual({ ok: true, command: { documentId: "doc1", prompt: "Tidy up", suggest: false } });
  });

  it.each([
    [[], USAGE],
    [["walk", "--document", "d", "p"], USAGE],
    [["run", "Tidy up"], "--document is required"],
    [["run", "--document", "d"], "one prompt is required"],
    [["run", "--document", "d", "   "], "one prompt is required"],
    [["run", "--document", "d", "one", "two"], "one prompt is required"],
    [["run", "--document", "d", "p", "--model", "x"], "Unknown option '--model'"],
  ])("refuses %j with a message that says what is wrong", (argv, message) => {
    const parsed = parseCommand(argv);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });
});
