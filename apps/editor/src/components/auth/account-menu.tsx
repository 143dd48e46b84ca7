"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { forgetOfflineCopies } from "../editor/collab-session";
import { authClient } from "./auth-client";
import "./auth.css";

/**
 * Who is signed in, a link to the account page (access tokens), "Sign out" and "Sign out
 * everywhere" (revokes every session of the user),
 * and, until the email is verified, a button that sends the verification link again.
 */
export function AccountMenu(props: { name: string; email: string; emailVerified: boolean }) {
  const { name, email } = props;
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [verificationSent, setVerificationSent] = useState(false);

  const sendVerification = async () => {
    setError(null);
    const result = await authClient.sendVerificationEmail({ email, callbackURL: "/" });
    if (result.error) setError(result.error.message ?? result.error.statusText);
    else setVerificationSent(true);
  };

  const leave = async (everywhere: boolean) => {
    setPending(true);
    setError(null);
    const result = everywhere ? await authClient.revokeSessions() : await authClient.signOut();
    if (result.error) {
      setPending(false);
      setError(result.error.message ?? result.error.statusText);
      return;
    }
    // Offline copies of documents stay with the account, not with this browser.
    await forgetOfflineCopies().catch((error: unknown) =>
      console.warn("[account] offline copies kept:", error),
    );
    router.replace("/sign-in");
    router.refresh();
  };

  return (
    <div className="account-menu" data-testid="account-menu">
      <span className="muted small" title={email}>
        {name === email ? email : `${name} · ${email}`}
      </span>
      {props.emailVerified ? null : verificationSent ? (
        <span role="status" className="muted small">
          Verification link sent to {email}
        </span>
      ) : (
        <button type="button" className="button" onClick={() => void sendVerification()}>
          Verify email
        </button>
      )}
      <Link className="button" href="/account">
        Account
      </Link>
      <button type="button" className="button" disabled={pending} onClick={() => void leave(false)}>
        Sign out
      </button>
      <button type="button" className="button" disabled={pending} onClick={() => void leave(true)}>
        Sign out everywhere
      </button>
      {error ? (
        <span role="alert" className="error small">
          {error}
        </span>
      ) : null}
    </div>
  );
}
