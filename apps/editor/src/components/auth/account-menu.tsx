"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { forgetOfflineCopies } from "../editor/collab-session";
import { authClient } from "./auth-client";
import "./auth.css";

/** Who is signed in, with "Sign out" and "Sign out everywhere" (revokes every session of the user). */
export function AccountMenu({ name, email }: { name: string; email: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

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
