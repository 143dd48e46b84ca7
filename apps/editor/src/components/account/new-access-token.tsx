"use client";

import { ACCESS_TOKEN_EXPIRY_DAYS } from "@coauthor/types";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTRPC } from "@/trpc/react";

type ExpiryDays = (typeof ACCESS_TOKEN_EXPIRY_DAYS)[number];

/**
 * The form that makes a token, and the token it made: shown here once, with a copy button, and
 * never again (the server keeps only its hash).
 */
export function NewAccessToken({ onCreated }: { onCreated: () => void }) {
  const trpc = useTRPC();
  const [name, setName] = useState("");
  const [days, setDays] = useState<ExpiryDays>(30);
  const [copied, setCopied] = useState<string | null>(null);
  const create = useMutation(trpc.accessTokens.create.mutationOptions({ onSuccess: onCreated }));
  const shown = useRef<HTMLElement>(null);
  const token = create.data?.token;

  // The new token is what the writer must act on: focus moves to it (and a screen reader reads it).
  useEffect(() => {
    if (token) shown.current?.focus();
  }, [token]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setCopied(null);
    create.mutate({ name, expiresInDays: days }, { onSuccess: () => setName("") });
  };

  const copy = async (value: string) => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("Token copied");
    } catch (error) {
      // No clipboard permission: the token is on the page to select and copy by hand.
      setCopied("Copy the token by hand: select it above");
      console.warn("[access tokens] clipboard refused:", error);
    }
  };

  return (
    <>
      <form className="access-token-form" onSubmit={submit} aria-label="New access token">
        <label>
          Name
          <input
            className="input"
            value={name}
            required
            maxLength={100}
            placeholder="e.g. Nightly summary script"
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <label>
          Expires in
          <select
            className="input"
            value={days}
            onChange={(event) => setDays(Number(event.target.value) as ExpiryDays)}
          >
            {ACCESS_TOKEN_EXPIRY_DAYS.map((option) => (
              <option key={option} value={option}>
                {option} days
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button primary" disabled={create.isPending || !name.trim()}>
          {create.isPending ? "Creating…" : "Create token"}
        </button>
      </form>
      {create.error ? (
        <p role="alert" className="error">
          Could not create the token: {create.error.message}
        </p>
      ) : null}
      {token ? (
        <section
          className="access-token-created"
          ref={shown}
          tabIndex={-1}
          aria-labelledby="new-token-heading"
          data-testid="new-access-token"
        >
          <h3 id="new-token-heading">Your new token “{create.data?.summary.name}”</h3>
          <p>Copy it now: it is shown only this once.</p>
          <code className="access-token-value" data-testid="new-access-token-value">
            {token}
          </code>
          <div className="access-token-created-actions">
            <button type="button" className="button" onClick={() => void copy(token)}>
              Copy token
            </button>
            <button type="button" className="button" onClick={() => create.reset()}>
              Done
            </button>
            <span role="status" className="small">
              {copied}
            </span>
          </div>
        </section>
      ) : null}
    </>
  );
}
