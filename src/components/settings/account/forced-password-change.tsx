"use client";

import { useRouter } from "next/navigation";
import { ChangePasswordForm } from "./change-password-form";

/** The first sign-in with a one-time password: once a new one is set, the dashboard opens. */
export function ForcedPasswordChange() {
  const router = useRouter();
  return (
    <ChangePasswordForm
      onChanged={() => {
        router.replace("/deployments");
        router.refresh();
      }}
    />
  );
}
