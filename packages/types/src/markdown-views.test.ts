import { describe, expect, it } from "vitest";
import { documentExportInputSchema, markdownFormatSchema } from "./markdown-views.ts";

describe("markdown export and import options", () => {
  it("accepts the three views and no view, and refuses any other", () => {
    for (const view of ["accepted", "rejected", "criticmarkup", undefined]) {
      expect(documentExportInputSchema.safeParse({ id: "d1", view }).success).toBe(true);
    }
    expect(documentExportInputSchema.safeParse({ id: "d1", view: "all" }).success).toBe(false);
    expect(documentExportInputSchema.safeParse({ id: "", view: "accepted" }).success).toBe(false);
  });

  it("reads an import as Markdown or as CriticMarkup only", () => {
    expect(markdownFormatSchema.safeParse("criticmarkup").success).toBe(true);
    expect(markdownFormatSchema.safeParse("html").success).toBe(false);
  });
});
