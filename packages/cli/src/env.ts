import { accessTokenSchema } from "@coauthor/types";
import { z } from "zod";

// The CLI's settings, read from the environment in this one place (a token on the command line
// would land in the shell's history and in `ps`).
const envSchema = z.object({
  COAUTHOR_URL: z.url({ protocol: /^https?$/, error: "not an http(s) address" }),
  COAUTHOR_TOKEN: accessTokenSchema,
});

/** Where the app is and the token to use. */
export interface CliEnv {
  url: string;
  token: string;
}

/** The CLI's settings, or the message naming each variable that is missing or wrong. */
export function readEnv(
  source: NodeJS.ProcessEnv,
): { ok: true; env: CliEnv } | { ok: false; message: string } {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const named = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return issue.code === "invalid_type" ? `${name} is not set` : `${name}: ${issue.message}`;
    });
    return { ok: false, message: named.join("; ") };
  }
  const url = parsed.data.COAUTHOR_URL.replace(/\/+$/, "");
  return { ok: true, env: { url, token: parsed.data.COAUTHOR_TOKEN } };
}
