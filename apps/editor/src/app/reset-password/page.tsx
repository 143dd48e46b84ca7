import type { Metadata } from "next";
import { ResetPasswordForm } from "@/components/auth/password-reset";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Choose a new password" };

/** Where a reset link lands (Better Auth redirects here with `?token=…`, or `?error=…`). */
export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string | string[]; error?: string | string[] }>;
}) {
  const query = await searchParams;
  const token = typeof query.token === "string" && query.token.length <= 200 ? query.token : null;
  return <ResetPasswordForm token={token} linkError={query.error !== undefined} />;
}
