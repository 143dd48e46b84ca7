import { toolNameSchema } from "@coauthor/types/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toolDefinitions } from "./definitions.ts";

describe("tool definitions", () => {
  it.each(toolNameSchema.options)(
    "describe %s with a name, a description and JSON-schema-able I/O",
    (name) => {
      const definition = toolDefinitions[name];
      expect(definition.name).toBe(name);
      expect(definition.description.length).toBeGreaterThan(100);
      expect(z.toJSONSchema(definition.input, { io: "input" })).toMatchObject({ type: "object" });
      expect(z.toJSONSchema(definition.output)).toHaveProperty("oneOf");
    },
  );

  it("exposes defaulted fields as optional to the model", () => {
    const schema = z.toJSONSchema(toolDefinitions.readDocument.input, { io: "input" });
    expect(schema).not.toHaveProperty("required");
  });
});
