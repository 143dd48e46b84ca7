// With no SMTP_URL the app writes each mail as one log line (apps/editor/src/server/mail/mail.ts):
//   [mail] to=<address> subject="<subject>" link=<url>
// Tests take verification and password-reset links from there.
import type { AppServer } from "./app-server.ts";

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Waits for the next mail to `to` whose subject contains `subject` (in the log after offset `from`,
 * e.g. `server.log.length` taken before the action that sends it) and returns its link.
 */
export async function waitForMailLink(
  server: AppServer,
  to: string,
  subject: string,
  from = 0,
): Promise<string> {
  const pattern = new RegExp(
    `^\\[mail\\] to=${escaped(to.toLowerCase())} subject="[^"]*${escaped(subject)}[^"]*" link=(\\S+)$`,
  );
  const match = await server.waitForLog(pattern, { from });
  const link = match[1];
  if (!link) throw new Error(`mail line without a link: ${match[0]}`);
  return link;
}
