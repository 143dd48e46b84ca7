import { parseArgs } from "node:util";

/** `coauthor run`: what to ask, where, and how its edits land. */
export interface RunCommand {
  documentId: string;
  prompt: string;
  recipeId?: string;
  suggest: boolean;
}

export const USAGE = 'usage: coauthor run --document ID "prompt" [--recipe NAME] [--suggest]';

/** The command the arguments ask for, or the message saying what is wrong with them. */
export function parseCommand(
  argv: string[],
): { ok: true; command: RunCommand } | { ok: false; message: string } {
  let parsed: ReturnType<typeof parseRun>;
  try {
    parsed = parseRun(argv);
  } catch (error) {
    // parseArgs throws for an unknown option or a missing value: that is the user's message.
    return { ok: false, message: `${error instanceof Error ? error.message : String(error)}\n${USAGE}` };
  }
  const [verb, prompt, ...extra] = parsed.positionals;
  if (verb !== "run") return { ok: false, message: USAGE };
  if (!parsed.values.document) return { ok: false, message: `--document is required\n${USAGE}` };
  if (!prompt?.trim() || extra.length > 0) return { ok: false, message: `one prompt is required\n${USAGE}` };
  return {
    ok: true,
    command: {
      documentId: parsed.values.document,
      prompt,
      recipeId: parsed.values.recipe,
      suggest: parsed.values.suggest ?? false,
    },
  };
}

function parseRun(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      document: { type: "string", short: "d" },
      recipe: { type: "string", short: "r" },
      suggest: { type: "boolean" },
    },
  });
}
