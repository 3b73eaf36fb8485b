"use server";

import { AuthError } from "next-auth";
import { z } from "zod";
import { OIDC_PROVIDER_ID } from "./oidc";
import { signIn, signOut, unstable_update } from "./nextauth";
import { TOO_MANY_ATTEMPTS } from "./sign-in-limit";

// Server actions behind the sign-in form, the SSO button, sign-out and the workspace switcher.

export type SignInState = { error: string | null; email: string };

const form = z.object({ email: z.string().trim(), password: z.string() });

export async function signInWithPassword(_prev: SignInState, data: FormData): Promise<SignInState> {
  const { email, password } = form.parse({
    email: data.get("email") ?? "",
    password: data.get("password") ?? "",
  });
  if (!email || !password) return { error: "Enter your email and password.", email };
  try {
    await signIn("credentials", { email, password, redirectTo: "/deployments" });
    return { error: null, email };
  } catch (error) {
    // A successful signIn throws Next's redirect, which must propagate.
    if (error instanceof AuthError) {
      const tooMany = (error as { code?: string }).code === "too_many_attempts";
      return {
        error: tooMany
          ? TOO_MANY_ATTEMPTS
          : error.type === "CredentialsSignin"
            ? "Incorrect email or password."
            : "Sign-in failed. Try again.",
        email,
      };
    }
    throw error;
  }
}

export async function signInWithSso(): Promise<void> {
  await signIn(OIDC_PROVIDER_ID, { redirectTo: "/deployments" });
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/signin" });
}

/** Membership is checked in the jwt callback: an unknown workspace leaves the session as it was. */
export async function switchWorkspace(workspaceId: string): Promise<void> {
  await unstable_update({ workspaceId });
}
