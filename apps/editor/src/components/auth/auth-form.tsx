"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { authClient } from "./auth-client";
import "./auth.css";

interface AuthFormProps {
  mode: "sign-in" | "sign-up";
  /** Where to go once signed in (already checked to be a local path). */
  next: string;
  /** OAuth providers configured on the server. */
  providers: ("github" | "google")[];
}

const PROVIDER_LABELS = { github: "GitHub", google: "Google" } as const;

/** Email + password sign-in or sign-up, with a button per configured OAuth provider. */
export function AuthForm({ mode, next, providers }: AuthFormProps) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const signingUp = mode === "sign-up";
  const query = next === "/" ? "" : `?next=${encodeURIComponent(next)}`;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    setPending(true);
    setError(null);
    const result = signingUp
      ? await authClient.signUp.email({
          email,
          password,
          name: String(form.get("name") ?? "").trim() || email,
        })
      : await authClient.signIn.email({ email, password });
    if (result.error) {
      setPending(false);
      setError(result.error.message ?? result.error.statusText);
      return;
    }
    router.replace(next);
    router.refresh();
  };

  const social = async (provider: "github" | "google") => {
    setError(null);
    const result = await authClient.signIn.social({ provider, callbackURL: next });
    if (result.error) setError(result.error.message ?? result.error.statusText);
  };

  return (
    <main className="auth-page">
      <h1>Coauthor</h1>
      <form className="auth-card" onSubmit={submit} aria-label={signingUp ? "Sign up" : "Sign in"}>
        <h2>{signingUp ? "Create an account" : "Sign in"}</h2>
        {signingUp ? (
          <label>
            Name
            <input className="input" name="name" autoComplete="name" maxLength={100} />
          </label>
        ) : null}
        <label>
          Email
          <input className="input" name="email" type="email" autoComplete="email" required maxLength={320} />
        </label>
        <label>
          Password
          <input
            className="input"
            name="password"
            type="password"
            autoComplete={signingUp ? "new-password" : "current-password"}
            required
            minLength={8}
            maxLength={128}
          />
        </label>
        {error ? (
          <p role="alert" className="error">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button primary" disabled={pending}>
          {signingUp ? "Sign up" : "Sign in"}
        </button>
        {providers.map((provider) => (
          <button key={provider} type="button" className="button" onClick={() => void social(provider)}>
            Continue with {PROVIDER_LABELS[provider]}
          </button>
        ))}
        {signingUp ? null : (
          <p className="muted small">
            <Link href="/forgot-password">Forgot your password?</Link>
          </p>
        )}
        <p className="muted small">
          {signingUp ? "Already have an account? " : "No account yet? "}
          <Link href={`${signingUp ? "/sign-in" : "/sign-up"}${query}`}>
            {signingUp ? "Sign in" : "Sign up"}
          </Link>
        </p>
      </form>
    </main>
  );
}
