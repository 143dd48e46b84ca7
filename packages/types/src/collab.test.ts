import { describe, expect, it } from "vitest";
import { agentPresenceSchema, participantIdentitySchema } from "./collab.ts";

describe("another copy's awareness state", () => {
  it("bounds an agent presence and drops malformed removal traces one by one", () => {
    const parsed = agentPresenceSchema.parse({
      for: "A".repeat(500),
      blockIds: Array.from({ length: 80 }, (_, index) => `b${index}`),
      removed: [
        { afterId: "b1", beforeId: null, label: "2 paragraphs removed" },
        { afterId: 7, beforeId: null, label: "not a block id" },
        "garbage",
        { afterId: null, beforeId: "b2", label: "x".repeat(500) },
      ],
      at: 1,
      extra: "ignored",
    });
    expect(parsed.for).toHaveLength(80);
    expect(parsed.blockIds).toHaveLength(50);
    expect(parsed.removed).toEqual([
      { afterId: "b1", beforeId: null, label: "2 paragraphs removed" },
      { afterId: null, beforeId: "b2", label: "x".repeat(120) },
    ]);
    expect(parsed).not.toHaveProperty("extra");
  });

  it("refuses a presence of the wrong shape, and reads an older client's without traces", () => {
    expect(agentPresenceSchema.safeParse({ for: "x", blockIds: [1], at: 1 }).success).toBe(false);
    expect(agentPresenceSchema.safeParse({ for: "x", blockIds: [], at: Number.NaN }).success).toBe(false);
    expect(agentPresenceSchema.parse({ for: "x", blockIds: [], at: 1 }).removed).toEqual([]);
  });

  it("needs a name, and draws only a colour that is a plain CSS value", () => {
    expect(participantIdentitySchema.safeParse({ name: "" }).success).toBe(false);
    expect(participantIdentitySchema.parse({ name: "Ann", color: "url(javascript:alert(1))" }).color).toBe(
      "",
    );
    expect(participantIdentitySchema.parse({ name: "Ann", color: "rgb(1, 2, 3)" }).color).toBe(
      "rgb(1, 2, 3)",
    );
  });
});
