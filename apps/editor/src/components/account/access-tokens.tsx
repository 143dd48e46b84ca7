"use client";

import type { AccessTokenSummary } from "@coauthor/types";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { NewAccessToken } from "./new-access-token";
import "./access-tokens.css";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/**
 * "Access tokens": make one (name, expiry; the token is shown once), list them (name, first
 * characters, created, expires, last used) and revoke them. A token lets a script start and
 * follow agent runs as this account, with its rights on each document, and nothing else.
 */
export function AccessTokens() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.accessTokens.list.queryOptions());
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.accessTokens.list.queryKey() });
  const revoke = useMutation(trpc.accessTokens.revoke.mutationOptions({ onSettled: invalidate }));
  const [status, setStatus] = useState("");

  return (
    <section className="access-tokens" aria-labelledby="access-tokens-heading">
      <h2 id="access-tokens-heading">Access tokens</h2>
      <p className="muted">
        A token lets a script run the agent as you (<code>pnpm coauthor run</code>), on the documents where
        you may edit. It cannot open documents in an editor or change your account.
      </p>
      <NewAccessToken onCreated={invalidate} />
      {tokens.isError ? (
        <p role="alert" className="error">
          Could not load access tokens: {tokens.error.message}
        </p>
      ) : null}
      {revoke.error ? (
        <p role="alert" className="error">
          Could not revoke the token: {revoke.error.message}
        </p>
      ) : null}
      <p role="status" className="muted small">
        {status}
      </p>
      {tokens.data && tokens.data.length > 0 ? (
        <table className="access-token-table" data-testid="access-token-list">
          <caption className="visually-hidden">Your access tokens</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Token</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((token) => (
              <TokenRow
                key={token.id}
                token={token}
                pending={revoke.isPending && revoke.variables.id === token.id}
                onRevoke={() =>
                  revoke.mutate({ id: token.id }, { onSuccess: () => setStatus(`Revoked “${token.name}”`) })
                }
              />
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">{tokens.isPending ? "Loading…" : "No access tokens."}</p>
      )}
    </section>
  );
}

function TokenRow(props: { token: AccessTokenSummary; pending: boolean; onRevoke: () => void }) {
  const { token } = props;
  const expired = Date.parse(token.expiresAt) <= Date.now();
  return (
    <tr>
      <td>{token.name}</td>
      <td>
        <code>{token.prefix}…</code>
      </td>
      <td>
        <When at={token.createdAt} />
      </td>
      <td>{expired ? <strong>Expired</strong> : <When at={token.expiresAt} />}</td>
      <td>{token.lastUsedAt ? <When at={token.lastUsedAt} /> : "Never"}</td>
      <td>
        <button
          type="button"
          className="button"
          disabled={props.pending}
          aria-label={`Revoke ${token.name}`}
          onClick={props.onRevoke}
        >
          Revoke
        </button>
      </td>
    </tr>
  );
}

function When({ at }: { at: string }) {
  return <time dateTime={at}>{dateFormat.format(new Date(at))}</time>;
}
