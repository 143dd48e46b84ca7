import { pipelineJsonSchema } from "@coauthor/types";
import { describe, expect, it } from "vitest";
import { parsePipeline } from "./definition.ts";
import { BUILT_IN_RECIPES } from "./recipes.ts";

/** The problems of `yaml`, as "line:column path: message". */
function problems(yaml: string): string[] {
  const parsed = parsePipeline(yaml);
  if (parsed.ok) return [];
  return parsed.issues.map((issue) => `${issue.line}:${issue.column} ${issue.path}: ${issue.message}`);
}

const agents = `agents:
  - id: writer
    instructions: Write.
    tools: write
  - id: critic
    instructions: Review.
    output:
      type: object
      properties:
        approved: { type: boolean }
`;

describe("pipeline definitions", () => {
  it("accepts every built-in recipe", () => {
    for (const recipe of BUILT_IN_RECIPES) expect(problems(recipe.yaml), recipe.id).toEqual([]);
  });

  it("reads the same definition written as JSON", () => {
    const parsed = parsePipeline(
      JSON.stringify({
        version: 1,
        name: "One agent",
        agents: [{ id: "writer", instructions: "Write.", tools: "write" }],
        steps: [{ agent: "writer" }],
      }),
    );
    expect(parsed.ok && parsed.definition.steps).toEqual([{ agent: "writer" }]);
    expect(parsed.ok && parsed.definition.budget.modelTurns).toBe(100);
  });

  it("names an unknown agent at its line and column, listing the agents there are", () => {
    expect(problems(`version: 1\nname: x\n${agents}steps:\n  - agent: editor\n`)).toEqual([
      '14:12 steps[0].agent: no agent has the id "editor" (agents: writer, critic)',
    ]);
  });

  it("refuses a condition that reads a step that cannot have run yet", () => {
    const yaml = `version: 1\nname: x\n${agents}steps:\n  - branch:\n      - when: steps.review.approved\n        steps: [{ agent: writer }]\n  - agent: critic\n    id: review\n`;
    expect(problems(yaml)).toEqual([
      '15:15 steps[0].branch[0].when: steps.review: step "review" cannot have run yet here (it comes later, or runs beside this one in a parallel block)',
    ]);
  });

  it("lets a loop's body read a later body step (the previous round's output), and its until read the body", () => {
    const yaml = `version: 1\nname: x\n${agents}steps:\n  - loop:\n      - agent: writer\n        inputs: [critic]\n      - agent: critic\n    until: steps.critic.approved\n    maxIterations: 3\n`;
    expect(problems(yaml)).toEqual([]);
  });

  it("refuses a field that no output declares, and an output read from an agent that declares none", () => {
    const yaml = `version: 1\nname: x\n${agents}steps:\n  - agent: writer\n  - agent: critic\n  - branch:\n      - when: steps.critic.score > 3.0\n        steps: [{ agent: writer, id: again }]\n      - when: steps.writer.done\n        steps: [{ agent: writer, id: more }]\n`;
    expect(problems(yaml)).toEqual([
      '17:15 steps[2].branch[0].when: steps.critic.score: agent "critic"\'s output has no field "score" (fields: approved)',
      '19:15 steps[2].branch[1].when: steps.writer: agent "writer" declares no output; give it an `output`',
    ]);
  });

  it("refuses duplicate step ids and duplicate agent ids, saying what to change", () => {
    const yaml = `version: 1\nname: x\n${agents}  - id: writer\n    instructions: Again.\nsteps:\n  - agent: writer\n`;
    expect(problems(yaml)).toEqual(['13:9 agents[2].id: two agents have the id "writer": rename one']);
    const steps = `version: 1\nname: x\n${agents}steps:\n  - agent: writer\n  - agent: writer\n`;
    expect(problems(steps)).toEqual([
      '15:12 steps[1].agent: two steps have the id "writer": give this one an `id` of its own',
    ]);
  });

  it("refuses a loop without a bound, or with more than 10 rounds", () => {
    const unbounded = `version: 1\nname: x\n${agents}steps:\n  - loop:\n      - agent: critic\n    until: steps.critic.approved\n`;
    expect(problems(unbounded)).toEqual([
      "14:5 steps[0].maxIterations: a loop needs a bound: maxIterations (1 to 10)",
    ]);
    expect(problems(unbounded.replace("until:", "maxIterations: 50\n    until:"))).toEqual([
      "16:20 steps[0].maxIterations: maxIterations: at most 10",
    ]);
  });

  it("refuses a writing agent inside a parallel block", () => {
    const yaml = `version: 1\nname: x\n${agents}steps:\n  - parallel:\n      - agent: critic\n      - agent: writer\n`;
    expect(problems(yaml)).toEqual([
      '16:16 steps[0].parallel[1].agent: agent "writer" may change the document, and steps in a parallel block may only read: move it after the block (one writer applies what the branches propose)',
    ]);
  });

  it("refuses a planning agent inside a parallel block (a branch answers in one call)", () => {
    const planner = "  - id: planner\n    instructions: Plan.\n    plan: true\n";
    const yaml = `version: 1\nname: x\n${agents}${planner}steps:\n  - parallel:\n      - agent: critic\n      - agent: planner\n`;
    expect(problems(yaml)).toEqual([
      '19:16 steps[0].parallel[1].agent: agent "planner" plans its work, and a parallel branch answers in one call: set "plan: false" or move it after the block',
    ]);
  });

  it("refuses a step of no kind or of two kinds, and an invalid condition", () => {
    const yaml = `version: 1\nname: x\n${agents}steps:\n  - agent: writer\n    sequence: [{ agent: critic }]\n  - id: nothing\n  - branch:\n      - when: "steps.critic.approved =="\n        steps: [{ agent: writer }]\n`;
    expect(problems(yaml)).toEqual([
      "14:5 steps[0]: a step is one kind only, not agent and sequence: split it into steps",
      "16:5 steps[1]: a step needs one of: agent, sequence, parallel, branch, loop",
    ]);
    const condition = `version: 1\nname: x\n${agents}steps:\n  - agent: critic\n  - branch:\n      - when: "steps.critic.approved =="\n        steps: [{ agent: writer }]\n`;
    expect(problems(condition)[0]).toMatch(
      /^16:15 steps\[1\]\.branch\[0\]\.when: not a valid CEL expression/,
    );
  });

  it("reports YAML syntax errors, duplicate keys and aliases, and a wrong version", () => {
    expect(problems("version: 1\nname: [unclosed\n")[0]).toMatch(/^\d+:\d+ : /);
    expect(problems("version: 1\nversion: 1\n")[0]).toMatch(/^2:1 : Map keys must be unique/);
    expect(problems(`version: 1\nname: x\n${agents}steps:\n  - &a { agent: writer }\n  - *a\n`)[0]).toMatch(
      /alias/i,
    );
    expect(problems(`version: 2\nname: x\n${agents}steps: [{ agent: writer }]\n`)).toEqual([
      "1:10 version: version: this is format version 1 (write `version: 1`)",
    ]);
  });

  it("exports the format as JSON Schema for editors", () => {
    const schema = pipelineJsonSchema();
    expect(schema).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["version", "agents", "steps"]),
    });
  });
});
