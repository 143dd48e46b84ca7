"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTRPC } from "@/trpc/react";
import { CopyLink } from "./copy-link";
import "./sharing.css";

type MemberRole = "editor" | "commenter" | "viewer";

const ROLES: ReadonlyArray<{ value: MemberRole; label: string }> = [
  { value: "editor", label: "Editor" },
  { value: "commenter", label: "Commenter" },
  { value: "viewer", label: "Viewer" },
];

/**
 * The owner's sharing dialog: invite people by email with a role (someone with no account yet
 * or whose account is not verified yet gets a pending invitation, theirs once that email is verified), see who has access
 * (members and pending invitations), change roles, remove members, revoke invitations, copy the link.
 */
export function ShareDialog({ documentId, onClose }: { documentId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<MemberRole>("editor");
  const [notice, setNotice] = useState<string | null>(null);
  const members = useQuery(trpc.documents.members.queryOptions({ id: documentId }));
  const invitations = useQuery(trpc.documents.invitations.queryOptions({ id: documentId }));
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.documents.members.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.documents.invitations.queryKey() }),
    ]);
  const share = useMutation(
    trpc.documents.share.mutationOptions({
      onSuccess: (result) => {
        setEmail("");
        setNotice(
          result.invited
            ? `Invited ${result.email}: they get access once they verify this email (signing up first if they have no account).`
            : "Shared.",
        );
        return refresh();
      },
    }),
  );
  const setMemberRole = useMutation(trpc.documents.setRole.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(trpc.documents.removeMember.mutationOptions({ onSettled: refresh }));
  const revoke = useMutation(trpc.documents.revokeInvitation.mutationOptions({ onSettled: refresh }));
  const failure =
    share.error ?? setMemberRole.error ?? remove.error ?? revoke.error ?? members.error ?? invitations.error;

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    share.mutate({ id: documentId, email: email.trim(), role });
  };

  return (
    <dialog ref={dialog} className="share-dialog" aria-label="Share document" onClose={onClose}>
      <h2>Share</h2>
      <form className="share-form" onSubmit={submit}>
        <input
          className="input"
          type="email"
          required
          maxLength={320}
          placeholder="Email"
          aria-label="Email to share with"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <RoleSelect label="Role" value={role} onChange={setRole} />
        {/* Not before the lists have loaded: a share's refresh would join their first fetch, which
            may predate the share, and the new person would not be listed. */}
        <button
          type="submit"
          className="button primary"
          disabled={share.isPending || members.isPending || invitations.isPending}
        >
          Share
        </button>
      </form>
      <p role="status" className="muted small share-notice">
        {notice}
      </p>
      {failure ? (
        <p role="alert" className="error small">
          {failure.message}
        </p>
      ) : null}
      <h3 className="share-heading">People with access</h3>
      <ul className="share-members" aria-label="People with access">
        {members.data?.map((member) => (
          <li key={member.userId} data-testid="share-member">
            <span>{member.email ?? member.name}</span>
            {member.role === "owner" ? (
              <span className="muted small">owner</span>
            ) : (
              <span className="share-member-actions">
                <RoleSelect
                  label={`Role of ${member.email ?? member.name}`}
                  value={member.role}
                  onChange={(next) =>
                    setMemberRole.mutate({ id: documentId, userId: member.userId, role: next })
                  }
                />
                <button
                  type="button"
                  className="button"
                  aria-label={`Remove ${member.email ?? member.name}`}
                  onClick={() => remove.mutate({ id: documentId, userId: member.userId })}
                >
                  Remove
                </button>
              </span>
            )}
          </li>
        ))}
        {invitations.data?.map((invitation) => (
          <li key={invitation.id} data-testid="share-invitation">
            <span>
              {invitation.email}{" "}
              <span className="muted small">
                invited · {invitation.role} · waiting for them to verify their email
              </span>
            </span>
            <button
              type="button"
              className="button"
              aria-label={`Revoke the invitation of ${invitation.email}`}
              onClick={() => revoke.mutate({ id: documentId, invitationId: invitation.id })}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
      <div className="share-footer">
        <CopyLink documentId={documentId} />
        <button type="button" className="button" onClick={() => dialog.current?.close()}>
          Done
        </button>
      </div>
    </dialog>
  );
}

function RoleSelect(props: { label: string; value: MemberRole; onChange: (role: MemberRole) => void }) {
  return (
    <select
      className="input share-role"
      aria-label={props.label}
      value={props.value}
      onChange={(event) => {
        const chosen = ROLES.find((role) => role.value === event.target.value);
        if (chosen) props.onChange(chosen.value);
      }}
    >
      {ROLES.map((role) => (
        <option key={role.value} value={role.value}>
          {role.label}
        </option>
      ))}
    </select>
  );
}
