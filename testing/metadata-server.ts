import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// An MCP server and its authorization server on loopback whose metadata the test writes: the
// protected-resource metadata (RFC 9728) at /mcp, the authorization server's metadata (RFC 8414
// and OpenID discovery) and dynamic registration (RFC 7591), for documents no real server sends.

export interface MetadataServer {
  /** `http://localhost:<port>`: the issuer the metadata names unless a test overrides it. */
  issuer: string;
  mcpUrl: string;
  /** Registrations received (a refused document must stop discovery before registering). */
  registrations: number;
  /** Fields merged over the authorization server's metadata. */
  metadata: Record<string, unknown>;
  /** Fields merged over the protected-resource metadata. */
  resource: Record<string, unknown>;
  stop(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export async function startMetadataServer(): Promise<MetadataServer> {
  const server = createServer((req, res) => {
    const { issuer } = state;
    if (req.url === "/.well-known/oauth-protected-resource/mcp")
      return json(res, 200, {
        resource: state.mcpUrl,
        authorization_servers: [issuer],
        ...state.resource,
      });
    if (
      req.url === "/.well-known/oauth-authorization-server" ||
      req.url === "/.well-known/openid-configuration"
    )
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        ...state.metadata,
      });
    if (req.url === "/register" && req.method === "POST") {
      state.registrations += 1;
      req.resume();
      return req.on("end", () =>
        json(res, 201, { client_id: `client-${state.registrations}`, client_id_issued_at: 0 }),
      );
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const state: MetadataServer = {
    issuer: `http://localhost:${port}`,
    mcpUrl: `http://localhost:${port}/mcp`,
    registrations: 0,
    metadata: {},
    resource: {},
    stop: () =>
      new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  return state;
}
