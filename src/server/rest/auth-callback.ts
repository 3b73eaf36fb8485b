import { AppError } from "@/server/errors";
import { completeFlow } from "@/server/services/agent-auth/complete-flow";
import { describeError, log } from "@/server/log";
import { agentAuthEndpoints } from "./endpoints/agent-auth";
import { route } from "./route";

// The browser's way back from the provider: whatever happened, it lands on a page that says so
// in words (a JSON error would strand the user on a blank page).

const resultPage = (params: Record<string, string>, requestId: string) =>
  new Response(null, {
    status: 303,
    headers: {
      location: `/auth/complete?${new URLSearchParams(params)}`,
      "x-request-id": requestId,
      "cache-control": "no-store",
    },
  });

export const authCallbackRedirect = route(
  agentAuthEndpoints.callback,
  async ({ db, params, query, requestId }) => {
    const provider = params.provider_id;
    try {
      const done = await completeFlow(db, provider, query);
      return resultPage(
        {
          result: "connected",
          provider,
          ...(done.provider_account_label ? { account: done.provider_account_label } : {}),
        },
        requestId,
      );
    } catch (error) {
      if (!(error instanceof AppError))
        log.error("auth callback failed", { request_id: requestId, ...describeError(error) });
      const message =
        error instanceof AppError ? error.message : "Something went wrong on our side; try again.";
      return resultPage({ result: "error", provider, message }, requestId);
    }
  },
);
