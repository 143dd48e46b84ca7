import type { AgentOutput, OutputField } from "@coauthor/types";
import { z } from "zod";

/** The zod schema of a field of an agent's declared output (the JSON-Schema subset). */
function fieldSchema(field: OutputField): z.ZodType {
  switch (field.type) {
    case "string":
      return field.enum && field.enum.length > 0 ? z.enum(field.enum as [string, ...string[]]) : z.string();
    case "number":
      return z.number();
    case "integer":
      return z.int();
    case "boolean":
      return z.boolean();
    case "array":
      return z.array(fieldSchema(field.items));
    case "object":
      return objectSchema(field.properties, field.required);
  }
}

function objectSchema(properties: Record<string, OutputField>, required: string[] = []): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(properties)) {
    const schema = fieldSchema(field).describe(field.description ?? name);
    shape[name] = required.includes(name) ? schema : schema.optional();
  }
  return z.object(shape);
}

/** Validates what an agent answered against the output it declared. */
export function outputSchema(output: AgentOutput): z.ZodType<Record<string, unknown>> {
  return objectSchema(output.properties, output.required) as z.ZodType<Record<string, unknown>>;
}
