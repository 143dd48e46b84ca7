import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { returnQuery } from "@/components/auth/return-path";
import { getAuth } from "./auth";

/** The signed-in user of a page request; redirects to the sign-in page (and back to `returnTo`) when there is none. */
export async function requirePageUser(returnTo: string) {
  const auth = await getAuth();
  const found = await auth.api.getSession({ headers: await headers() });
  if (!found) redirect(`/sign-in${returnQuery(returnTo)}`);
  return {
    id: found.user.id,
    name: found.user.name,
    email: found.user.email,
    emailVerified: found.user.emailVerified,
  };
}
