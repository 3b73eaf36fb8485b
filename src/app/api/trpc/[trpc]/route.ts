import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root";
import { createSessionContext } from "@/server/context";
import { requestIdFrom } from "@/server/request-id";

const handler = (req: Request) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createSessionContext(requestIdFrom(req.headers)),
  });

export { handler as GET, handler as POST };
