"use client";

import Link from "next/link";
import { type FormEvent, useState } from "react";
import { authClient } from "./auth-client";
import "./auth.css";

type Outcome = { kind: "idle" } | { kind: "pending" } | { kind: "done" } | { kind: "error"; message: string };

function errorText(error: { message?: string; statusText: string }): string {
  return error.message ?? error.statusText;
}

/** Asks for a password-reset link (Better Auth mails it, or logs it with no mail server). */
export function ForgotPasswordForm() {
  const [outcome, setOutcome] = useState<Outcome>({ kind: "idle" });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "");
    setOutcome({ kind: "pending" });
    const result = await authClient.requestPasswordReset({ email, redirectTo: "/reset-password" });
    setOutcome(result.error ? { kind: "error", message: errorText(result.error) } : { kind: "done" });
  };

  return (
    <main className="auth-page">
      <h1>Coauthor</h1>
      <form className="auth-card" onSubmit={submit} aria-label="Reset your password">
        <h2>Reset your password</h2>
        <label>
          Email
          <input className="input" name="email" type="email" autoComplete="email" required maxLength={320} />
        </label>
        {outcome.kind === "done" ? (
          <p role="status" data-testid="reset-requested">
            If an account uses this email, a link to choose a new password is on its way.
          </p>
        ) : null}
        {outcome.kind === "error" ? (
          <p role="alert" className="error">
            {outcome.message}
          </p>
        ) : null}
        <button type="submit" className="button primary" disabled={outcome.kind === "pending"}>
          Send reset link
        </button>
        <p className="muted small">
          <Link href="/sign-in">Back to sign in</Link>
        </p>
      </form>
    </main>
  );
}

/** Chooses a new password with the token of a reset link (`?token=…`; `?error=…` when it was refused). */
export function ResetPasswordForm({ token, linkError }: { token: string | null; linkError: boolean }) {
  const [outcome, setOutcome] = useState<Outcome>({ kind: "idle" });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!token) return;
    const newPassword = String(new FormData(event.currentTarget).get("password") ?? "");
    setOutcome({ kind: "pending" });
    const result = await authClient.resetPassword({ newPassword, token });
    setOutcome(result.error ? { kind: "error", message: errorText(result.error) } : { kind: "done" });
  };

  if (!token || linkError)
    return (
      <main className="auth-page">
        <h1>Coauthor</h1>
        <div className="auth-card">
          <h2>Choose a new password</h2>
          <p role="alert" className="error">
            This reset link is invalid or has expired.
          </p>
          <Link href="/forgot-password">Ask for a new link</Link>
        </div>
      </main>
    );

  return (
    <main className="auth-page">
      <h1>Coauthor</h1>
      <form className="auth-card" onSubmit={submit} aria-label="Choose a new password">
        <h2>Choose a new password</h2>
        <label>
          New password
          <input
            className="input"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={128}
          />
        </label>
        {outcome.kind === "done" ? (
          <p role="status" data-testid="password-changed">
            Password changed; you are signed out everywhere. <Link href="/sign-in">Sign in</Link>
          </p>
        ) : null}
        {outcome.kind === "error" ? (
          <p role="alert" className="error">
            {outcome.message}
          </p>
        ) : null}
        <button
          type="submit"
          className="button primary"
          disabled={outcome.kind !== "idle" && outcome.kind !== "error"}
        >
          Change password
        </button>
      </form>
    </main>
  );
}
