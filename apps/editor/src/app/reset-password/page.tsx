import { resetLinkQuerySchema } from "@coauthor/types";
import type { Metadata } from "next";
import { ResetPasswordForm } from "@/components/auth/password-reset";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Choose a new password" };

/** Where a reset link lands (Better Auth redirects here with `?token=…`, or `?error=…`). */
export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = resetLinkQuerySchema.parse(await searchParams);
  return <ResetPasswordForm token={query.token ?? null} linkError={query.error !== undefined} />;
}
