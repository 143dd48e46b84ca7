import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/auth/auth-form";
import { safeReturnPath } from "@/components/auth/return-path";
import { enabledOAuthProviders, getAuth } from "@/server/auth/auth";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign up" };

/** Create an account with email + password (or a configured OAuth provider). */
export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const next = safeReturnPath((await searchParams).next);
  const auth = await getAuth();
  if (await auth.api.getSession({ headers: await headers() })) redirect(next);
  return <AuthForm mode="sign-up" next={next} providers={enabledOAuthProviders()} />;
}
