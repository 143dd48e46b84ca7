import { afterEach, describe, expect, it, vi } from "vitest";
import { mailLogLine, sendLinkMail } from "./mail";

const mail = {
  to: "ada@example.test",
  subject: "Verify your email for Coauthor",
  intro: "Open this link to verify your email address.",
  link: "http://127.0.0.1:3000/api/auth/verify-email?token=abc&callbackURL=%2F",
};

describe("mail without a mail server", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("is one log line naming the recipient, the subject and the link", () => {
    expect(mailLogLine(mail)).toBe(
      '[mail] to=ada@example.test subject="Verify your email for Coauthor" link=http://127.0.0.1:3000/api/auth/verify-email?token=abc&callbackURL=%2F',
    );
  });

  it("writes that line to stdout when SMTP_URL is unset", async () => {
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    await sendLinkMail(mail);
    expect(write).toHaveBeenCalledWith(`${mailLogLine(mail)}\n`);
  });
});
