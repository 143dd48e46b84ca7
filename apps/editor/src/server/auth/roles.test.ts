import { describe, expect, it } from "vitest";
import { memberRoleSchema, roleAllows } from "./roles";

describe("document roles", () => {
  it("lets every role read, and only owners and editors edit", () => {
    expect(roleAllows("owner", "read")).toBe(true);
    expect(roleAllows("editor", "read")).toBe(true);
    expect(roleAllows("viewer", "read")).toBe(true);
    expect(roleAllows("owner", "edit")).toBe(true);
    expect(roleAllows("editor", "edit")).toBe(true);
    expect(roleAllows("viewer", "edit")).toBe(false);
    expect(roleAllows("commenter", "edit")).toBe(false);
  });

  it("lets owners, editors and commenters comment, and not viewers", () => {
    expect(roleAllows("owner", "comment")).toBe(true);
    expect(roleAllows("editor", "comment")).toBe(true);
    expect(roleAllows("commenter", "comment")).toBe(true);
    expect(roleAllows("commenter", "read")).toBe(true);
    expect(roleAllows("viewer", "comment")).toBe(false);
  });

  it("never accepts owner as a role to share with", () => {
    expect(memberRoleSchema.safeParse("owner").success).toBe(false);
    expect(memberRoleSchema.safeParse("viewer").success).toBe(true);
  });
});
