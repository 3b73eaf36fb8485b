import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { freePort } from "../src/lib/free-port";

// A real OAuth 2.0 / OpenID Connect authorization server on loopback (oidc-provider) for the
// agent-authorization tests: confidential clients (client_secret_basic, client_secret_post), a
// public PKCE client, refresh tokens, revocation, introspection and dynamic registration.

export const CLIENTS = {
  basic: {
    client_id: "hangar-basic",
    client_secret: "basic-secret-0123456789",
    method: "client_secret_basic",
  },
  post: {
    client_id: "hangar-post",
    client_secret: "post-secret-0123456789",
    method: "client_secret_post",
  },
  public: { client_id: "hangar-public", client_secret: undefined, method: "none" },
} as const;
interface OidcClient {
  clientAuthMethod: string;
  grantTypeAllowed(grant: string): boolean;
}
export type ClientName = keyof typeof CLIENTS;

export interface OAuthServer {
  issuer: string;
  authUrl: string;
  tokenUrl: string;
  /** Whether the server considers a token active (RFC 7662, asked as `client`). */
  introspect(token: string, client: ClientName): Promise<{ active: boolean; sub?: string }>;
  /** RFC 7009 at the server, as `client`. */
  revoke(token: string, client: ClientName): Promise<void>;
  stop(): Promise<void>;
}

function authHeader(client: ClientName): Record<string, string> {
  const c = CLIENTS[client];
  return {
    authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString("base64")}`,
  };
}

/** `redirectUris`: every callback URL the test's providers will use (Hangar's own). */
export async function startOAuthServer(redirectUris: string[]): Promise<OAuthServer> {
  const port = await freePort();
  const issuer = `http://localhost:${port}`;
  const grant_types = ["authorization_code", "refresh_token"];
  const provider = new Provider(issuer, {
    clients: (Object.keys(CLIENTS) as ClientName[]).map((name) => ({
      client_id: CLIENTS[name].client_id,
      ...(CLIENTS[name].client_secret ? { client_secret: CLIENTS[name].client_secret } : {}),
      token_endpoint_auth_method: CLIENTS[name].method,
      redirect_uris: redirectUris,
      grant_types,
    })),
    scopes: ["openid", "offline_access", "email", "profile", "files:read", "files:write"],
    claims: { openid: ["sub"], email: ["email"] },
    async findAccount(_ctx: unknown, sub: string) {
      return { accountId: sub, claims: async () => ({ sub, email: `${sub}@example.test` }) };
    },
    features: {
      devInteractions: { enabled: true },
      revocation: { enabled: true },
      introspection: { enabled: true },
      registration: { enabled: true },
    },
    pkce: { required: (_ctx: unknown, client: OidcClient) => client.clientAuthMethod === "none" },
    issueRefreshToken: async (_ctx: unknown, client: OidcClient) =>
      client.grantTypeAllowed("refresh_token"),
    cookies: { keys: ["oauth-server-test-cookie-key"] },
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const form = (body: Record<string, string>) => new URLSearchParams(body).toString();
  return {
    issuer,
    authUrl: `${issuer}/auth`,
    tokenUrl: `${issuer}/token`,
    async introspect(token, client) {
      const res = await fetch(`${issuer}/token/introspection`, {
        method: "POST",
        headers: { ...authHeader(client), "content-type": "application/x-www-form-urlencoded" },
        body: form({ token }),
      });
      return (await res.json()) as { active: boolean; sub?: string };
    },
    async revoke(token, client) {
      const res = await fetch(`${issuer}/token/revocation`, {
        method: "POST",
        headers: { ...authHeader(client), "content-type": "application/x-www-form-urlencoded" },
        body: form({ token }),
      });
      if (!res.ok) throw new Error(`revocation answered ${res.status}`);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A tiny MCP server's protected-resource metadata (RFC 9728) naming `issuer`. */
export async function startProtectedResource(issuer: string) {
  const server = createServer((req, res) => {
    const { port } = server.address() as AddressInfo;
    const resource = `http://localhost:${port}/mcp`;
    if (req.url === "/.well-known/oauth-protected-resource/mcp") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ resource, authorization_servers: [issuer] }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/mcp`,
    stop: () =>
      new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
