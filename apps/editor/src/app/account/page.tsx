import type { Metadata } from "next";
import Link from "next/link";
import { AccessTokens } from "@/components/account/access-tokens";
import { AccountMenu } from "@/components/auth/account-menu";
import { requirePageUser } from "@/server/auth/page-session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Account" };

/** The account page: who is signed in, and the personal access tokens that let scripts run the agent. */
export default async function AccountPage() {
  const user = await requirePageUser("/account");
  return (
    <main className="home">
      <header className="home-header">
        <p>
          <Link href="/">← Documents</Link>
        </p>
        <h1>Account</h1>
        <AccountMenu name={user.name} email={user.email} emailVerified={user.emailVerified} />
      </header>
      <AccessTokens />
    </main>
  );
}
