import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import { NextRequest } from "next/server";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { env } from "@/env";
import { getDb } from "@/server/db";
import { publicOrigin } from "@/server/public-origin";
import { checkCredentials } from "./credentials";
import { hangarUserIdForOidc, OIDC_PROVIDER_ID, oidcProvider } from "./oidc";
import { endSession, sessionIsLive, startSession } from "./session-store";

/** The account has too many recent failures (sign-in-limit.ts): the form says so. */
class TooManySignInAttempts extends CredentialsSignin {
  code = "too_many_attempts";
}

/** The signing-in browser's User-Agent, shown in Settings > Sessions (none outside a request). */
async function userAgent(): Promise<string | null> {
  try {
    const { headers } = await import("next/headers");
    return (await headers()).get("user-agent");
  } catch {
    return null;
  }
}

declare module "next-auth" {
  interface Session {
    userId: string;
    workspaceId: string | null;
    sessionId: string;
  }
}

const credentials = z.object({ email: z.email(), password: z.string().min(1).max(1000) });

const config: NextAuthConfig = {
  secret: env.AUTH_SECRET,
  trustHost: true,
  session: { strategy: "jwt" },
  pages: { signIn: "/signin" },
  providers: [
    Credentials({
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(raw) {
        const parsed = credentials.safeParse(raw);
        if (!parsed.success) return null;
        const user = await checkCredentials(getDb(), parsed.data.email, parsed.data.password);
        if (user === "locked") throw new TooManySignInAttempts();
        return user;
      },
    }),
    ...[oidcProvider()].filter((p) => p !== null),
  ],
  events: {
    async signOut(message) {
      const sid = "token" in message ? message.token?.sid : undefined;
      if (typeof sid === "string") await endSession(getDb(), sid);
    },
  },
  callbacks: {
    async signIn({ account, profile }) {
      if (account?.provider !== OIDC_PROVIDER_ID) return true;
      return (await hangarUserIdForOidc(profile ?? {})) !== null;
    },
    async jwt({ token, user, trigger, session, account, profile }) {
      const userId =
        account?.provider === OIDC_PROVIDER_ID
          ? await hangarUserIdForOidc(profile ?? {})
          : user?.id;
      if (userId) {
        token.uid = userId;
        // A server-side session per sign-in: sign-out and Settings > Sessions revoke it.
        token.sid = await startSession(getDb(), userId, await userAgent());
        const first = await getDb().membership.findFirst({
          where: { userId },
          orderBy: { createdAt: "asc" },
        });
        token.workspaceId = first?.workspaceId ?? null;
      }
      // Every use of the cookie checks its session: a revoked one (or a token from before
      // sessions existed) signs the browser out.
      if (
        typeof token.uid !== "string" ||
        typeof token.sid !== "string" ||
        !(await sessionIsLive(getDb(), token.sid, token.uid))
      )
        return null;
      // The workspace switcher calls update({ workspaceId }); membership is checked here.
      const requested = (session as { workspaceId?: unknown } | undefined)?.workspaceId;
      if (trigger === "update" && typeof requested === "string" && typeof token.uid === "string") {
        const member = await getDb().membership.findFirst({
          where: { userId: token.uid, workspaceId: requested },
        });
        if (member) token.workspaceId = requested;
      }
      return token;
    },
    session({ session, token }) {
      session.userId = String(token.uid ?? "");
      session.workspaceId = (token.workspaceId as string | null | undefined) ?? null;
      session.sessionId = String(token.sid ?? "");
      return session;
    },
  },
};

// next-auth builds its URLs (redirects, OIDC redirect URI, secure cookie names) from AUTH_URL,
// else from the forwarded headers the server left (forwarded-headers.ts): with the routes below
// seeing the request at publicOrigin, that is the one origin every URL of Hangar's starts with.
if (env.HANGAR_PUBLIC_URL) process.env.AUTH_URL ??= env.HANGAR_PUBLIC_URL;

const nextAuth = NextAuth(config);
export const { auth, signIn, signOut, unstable_update } = nextAuth;

type AuthRoute = (req: NextRequest) => Promise<Response>;
const atPublicOrigin =
  (handler: AuthRoute): AuthRoute =>
  (req) =>
    handler(
      new NextRequest(new URL(req.nextUrl.pathname + req.nextUrl.search, publicOrigin(req)), req),
    );
export const handlers = {
  GET: atPublicOrigin(nextAuth.handlers.GET),
  POST: atPublicOrigin(nextAuth.handlers.POST),
};
