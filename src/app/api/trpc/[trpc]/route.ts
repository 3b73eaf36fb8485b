import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root";
import { createSessionContext } from "@/server/context";
import { readBodyUpTo } from "@/server/limited-body";
import { publicOrigin } from "@/server/public-origin";
import { requestIdFrom } from "@/server/request-id";
import { isCrossSite } from "@/server/same-origin";
import { MAX_TRPC_BATCH, MAX_TRPC_BODY_BYTES } from "@/trpc/limits";

const refuse = (status: number, message: string) =>
  Response.json(
    { error: { message, code: status === 403 ? "FORBIDDEN" : "PAYLOAD_TOO_LARGE" } },
    {
      status,
    },
  );

async function handler(req: Request) {
  let request = req;
  if (req.method === "POST") {
    // Mutations act with the browser's cookie: only from our own pages, as at the REST door.
    if (isCrossSite(req.headers))
      return refuse(403, "Cross-site requests cannot use a browser session");
    const bytes = await readBodyUpTo(req, MAX_TRPC_BODY_BYTES);
    if (bytes === null) return refuse(413, "Request body is larger than 1 MiB");
    request = new Request(req.url, {
      method: req.method,
      headers: req.headers,
      body: new Uint8Array(bytes),
    });
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    maxBatchSize: MAX_TRPC_BATCH,
    createContext: () => createSessionContext(requestIdFrom(req.headers), publicOrigin(req)),
  });
}

export { handler as GET, handler as POST };
