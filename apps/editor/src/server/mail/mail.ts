import { createTransport, type Transporter } from "nodemailer";
import { env } from "@/env";

/** A message carrying one link the reader must open (verify an email, reset a password…). */
export interface LinkMail {
  to: string;
  subject: string;
  /** What the link does, in a sentence ("Open this link to verify your email."). */
  intro: string;
  link: string;
}

let transport: Transporter | null = null;

function smtp(url: string): Transporter {
  transport ??= createTransport(url);
  return transport;
}

/** The log line written instead of a mail when no SMTP_URL is set (tests read links from it). */
export function mailLogLine(mail: LinkMail): string {
  return `[mail] to=${mail.to} subject=${JSON.stringify(mail.subject)} link=${mail.link}`;
}

/**
 * Sends a link by mail through SMTP_URL, or, with no mail server configured, writes it to the
 * server log (stdout, whatever LOG_LEVEL says: it is the only way the link reaches anyone).
 * A failed send throws, so Better Auth answers with an error instead of a silent "sent".
 */
export async function sendLinkMail(mail: LinkMail): Promise<void> {
  if (!env.SMTP_URL) {
    process.stdout.write(`${mailLogLine(mail)}\n`);
    return;
  }
  await smtp(env.SMTP_URL).sendMail({
    from: env.MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    text: `${mail.intro}\n\n${mail.link}\n\nIf you did not ask for this, ignore this message.\n`,
  });
}
