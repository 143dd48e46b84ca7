import type { Metadata } from "next";
import { ForgotPasswordForm } from "@/components/auth/password-reset";

export const metadata: Metadata = { title: "Reset your password" };

/** Asks for a password-reset link by email. */
export default function ForgotPasswordPage() {
  return <ForgotPasswordForm />;
}
